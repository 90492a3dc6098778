package dev.kiln.processor.frontend;

import com.sun.source.tree.ArrayAccessTree;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.Tree;
import dev.kiln.processor.diag.KilnDiagnostic;
import dev.kiln.processor.diag.Message;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Monoid;
import dev.kiln.processor.ir.Stmt;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeMirror;

/**
 * Assignments to array parameters of records, each one array a component: {@code r[i] = e} into an
 * {@code @Out} array (a store a component), and updates of {@code @Reduce} arrays (user monoids),
 * {@code r[i] = r[i].m(e)} or {@code r[i] = R.m(r[i], e)}: the record's combining method {@code m}
 * inlined once per operator on operands of its own ({@link Monoid}), its {@code @Identity} value,
 * and the {@link Stmt.Combine} of the update. Reads of input arrays of records are {@link
 * RecordExpressions}'.
 */
final class RecordArrayLowering {
  static final String IDENTITY = "dev.kiln.Identity";
  static final String ELEMENT_GRADIENT = "dev.kiln.ElementGradient";

  private final LoweringState state;
  private final ExpressionLowering expressions;
  /** The monoid of each record array of the operator, from its first update (one method per array). */
  private final Map<String, Monoid> monoids = new HashMap<>();
  /** The combining method of each record array, from its first update. */
  private final Map<String, ExecutableElement> methods = new HashMap<>();
  /** The record arrays the body assigns, well formed or not. */
  private final java.util.Set<String> assigned = new java.util.HashSet<>();

  RecordArrayLowering(LoweringState state, ExpressionLowering expressions) {
    this.state = state;
    this.expressions = expressions;
  }

  /** The record array {@code access} indexes, or null when it indexes something else. */
  Signature.RecordArray recordArrayOf(ExpressionTree access) {
    while (access instanceof ParenthesizedTree p) {
      access = p.getExpression();
    }
    return access instanceof ArrayAccessTree a ? state.recordArray(a) : null;
  }

  /**
   * {@code target[index] = rhs} for the record array {@code target}: a store a component into an
   * {@code @Out} array, a {@link Stmt.Combine} into a {@code @Reduce} one.
   */
  void assign(AssignmentTree a, Signature.RecordArray target, ArrayAccessTree access) {
    assigned.add(target.name());
    if (target.role() == dev.kiln.processor.ir.ArrayRole.IN) {
      throw new KilnDiagnostic(access, Message.WRITE_TO_INPUT, target.name());
    }
    Expr index = expressions.index(access, target.components().get(0));
    if (target.role() == dev.kiln.processor.ir.ArrayRole.OUT) {
      RecordValue value = expressions.records.lower(a.getExpression(), RecordType.of(target.record(), a, state.inliner));
      for (int i = 0; i < target.components().size(); i++) {
        state.out.add(new Stmt.Store(target.components().get(i), index, value.components().get(i), state.path, TreeRef.of(a)));
      }
      return;
    }
    ExpressionTree rhs = a.getExpression();
    while (rhs instanceof ParenthesizedTree p) {
      rhs = p.getExpression();
    }
    String name = target.name();
    if (!(rhs instanceof MethodInvocationTree call)) {
      throw new KilnDiagnostic(a, Message.RECORD_ARRAY_FORM, "'" + name + "' is assigned '" + rhs + "'");
    }
    RecordType type = RecordType.of(target.record(), a, state.inliner);
    ExpressionTree self;
    ExpressionTree term;
    String method;
    boolean isStatic;
    if (call.getMethodSelect() instanceof MemberSelectTree ms && call.getArguments().size() == 1) {
      self = ms.getExpression(); // r[i].m(e)
      term = call.getArguments().get(0);
      method = ms.getIdentifier().toString();
      isStatic = false;
    } else if (call.getMethodSelect() instanceof MemberSelectTree ms && call.getArguments().size() == 2) {
      self = call.getArguments().get(0); // R.m(r[i], e)
      term = call.getArguments().get(1);
      method = ms.getIdentifier().toString();
      isStatic = true;
      TypeElement owner = state.names.type(ms.getExpression());
      if (owner == null || !owner.equals(target.record())) {
        throw new KilnDiagnostic(call, Message.RECORD_ARRAY_FORM,
            "'" + name + "' is updated by '" + ms + "', not by a method of " + type.name());
      }
    } else {
      throw new KilnDiagnostic(a, Message.RECORD_ARRAY_FORM, "'" + name + "' is assigned '" + rhs + "'");
    }
    if (!sameElement(self, target, index)) {
      throw new KilnDiagnostic(a, Message.RECORD_ARRAY_FORM,
          "'" + name + "[...]' is assigned a value that does not start from the same element (" + self + ")");
    }
    ExecutableElement m = combiningMethod(type, method, isStatic, call);
    ExecutableElement first = methods.putIfAbsent(name, m);
    if (first != null && !first.equals(m)) { // also an instance and a static method of one name
      throw new KilnDiagnostic(a, Message.RECORD_ARRAY_FORM, "'" + name + "' is combined with both "
          + (first.getModifiers().contains(Modifier.STATIC) ? "the static " : "") + first.getSimpleName() + " and "
          + (isStatic ? "the static " : "") + method);
    }
    Monoid monoid = monoids.computeIfAbsent(name, k -> monoid(type, m, call));
    RecordValue value = expressions.records.lower(term, type);
    state.out.add(new Stmt.Combine(monoid, name, target.components(), index, value.components(), state.path, TreeRef.of(a)));
  }

  /** The {@code @Reduce} record arrays the operator never updates, after lowering its body. */
  List<Signature.RecordArray> neverCombined() {
    return state.signature.recordArrays().stream()
        .filter(r -> r.role() == dev.kiln.processor.ir.ArrayRole.REDUCE && !assigned.contains(r.name()))
        .toList();
  }

  private boolean sameElement(ExpressionTree self, Signature.RecordArray target, Expr index) {
    while (self instanceof ParenthesizedTree p) {
      self = p.getExpression();
    }
    return self instanceof ArrayAccessTree access && recordArrayOf(access) == target
        && expressions.index(access, target.components().get(0)) == index;
  }

  /** {@code R m(R)} (an instance method) or {@code static R m(R, R)} of {@code type}. */
  private static ExecutableElement combiningMethod(RecordType type, String name, boolean isStatic, Tree at) {
    int arity = isStatic ? 2 : 1;
    for (Element e : type.element().getEnclosedElements()) {
      if (e.getKind() != ElementKind.METHOD || !e.getSimpleName().contentEquals(name)) {
        continue;
      }
      ExecutableElement m = (ExecutableElement) e;
      if (m.getParameters().size() != arity || m.getModifiers().contains(Modifier.STATIC) != isStatic) {
        continue;
      }
      boolean ok = isRecord(m.getReturnType(), type) && m.getParameters().stream().allMatch(p -> isRecord(p.asType(), type));
      if (!ok) {
        throw new KilnDiagnostic(at, Message.RECORD_ARRAY_FORM,
            "'" + type.name() + "." + name + "' does not take and return " + type.name() + " values only");
      }
      return m;
    }
    throw new KilnDiagnostic(at, Message.RECORD_ARRAY_FORM, type.name() + " declares no " + (isStatic ? "static " : "")
        + "method '" + name + "' taking " + arity + " " + type.name() + (arity == 1 ? "" : "s"));
  }

  private static boolean isRecord(TypeMirror t, RecordType type) {
    return type.element().equals(RecordType.recordElement(t));
  }

  /** The method {@code m} of {@code type} inlined on fresh operands, with the record's identity. */
  private Monoid monoid(RecordType type, ExecutableElement m, Tree at) {
    List<Expr.Var> left = new ArrayList<>();
    List<Expr.Var> right = new ArrayList<>();
    for (RecordType.Component c : type.components()) {
      left.add(state.f.newVar("a_" + c.name(), c.name(), c.type(), Expr.VarKind.OPERAND));
      right.add(state.f.newVar("b_" + c.name(), c.name(), c.type(), Expr.VarKind.OPERAND));
    }
    RecordValue a = new RecordValue(type, new ArrayList<>(left));
    RecordValue b = new RecordValue(type, new ArrayList<>(right));
    Expr path = state.path;
    int scope = state.scope;
    state.path = state.f.trueValue(); // the method is a function of its operands alone, under no condition
    state.scope = 0;
    RecordValue combined;
    RecordValue identity;
    Monoid.Gradient gradient;
    try {
      boolean isStatic = m.getModifiers().contains(Modifier.STATIC);
      combined = (RecordValue) expressions.records.invoke(m, type, isStatic ? null : a,
          isStatic ? List.of(a, b) : List.of(b), at);
      identity = (RecordValue) expressions.records.invoke(identityMethod(type, at), type, null, List.of(), at);
      ExecutableElement g = gradientMethod(type, at);
      gradient = g == null ? null : gradient(type, g, at);
    } finally {
      state.path = path;
      state.scope = scope;
    }
    List<Expr> results = new ArrayList<>();
    List<Expr.Const> units = new ArrayList<>();
    for (int i = 0; i < type.components().size(); i++) {
      RecordType.Component c = type.components().get(i);
      results.add(state.f.cast(c.type(), combined.components().get(i)));
      if (!(state.f.cast(c.type(), identity.components().get(i)) instanceof Expr.Const k)) {
        throw new KilnDiagnostic(at, Message.RECORD_ARRAY_FORM,
            "the @Identity value of " + type.name() + " is not a constant in its component '" + c.name() + "'");
      }
      units.add(k);
    }
    return new Monoid(type.name(), m.getSimpleName().toString(),
        type.components().stream().map(RecordType.Component::name).toList(), left, right, results, units, gradient);
  }

  /** The {@code @ElementGradient} method {@code g} of {@code type} inlined on fresh operands. */
  private Monoid.Gradient gradient(RecordType type, ExecutableElement g, Tree at) {
    List<Expr.Var> total = new ArrayList<>();
    List<Expr.Var> adjoint = new ArrayList<>();
    List<Expr.Var> element = new ArrayList<>();
    for (RecordType.Component c : type.components()) {
      total.add(state.f.newVar("t_" + c.name(), c.name(), c.type(), Expr.VarKind.OPERAND));
      adjoint.add(state.f.newVar("dt_" + c.name(), c.name(), c.type(), Expr.VarKind.OPERAND));
      element.add(state.f.newVar("e_" + c.name(), c.name(), c.type(), Expr.VarKind.OPERAND));
    }
    RecordValue value = (RecordValue) expressions.records.invoke(g, type, null, List.of(
        new RecordValue(type, new ArrayList<>(total)), new RecordValue(type, new ArrayList<>(adjoint)),
        new RecordValue(type, new ArrayList<>(element))), at);
    List<Expr> result = new ArrayList<>();
    for (int i = 0; i < type.components().size(); i++) {
      result.add(state.f.cast(type.components().get(i).type(), value.components().get(i)));
    }
    return new Monoid.Gradient(g.getSimpleName().toString(), total, adjoint, element, result);
  }

  /**
   * The {@code @ElementGradient} method of {@code type}, {@code static R m(R total, R
   * totalGradient, R element)}; null when it declares none.
   */
  private static ExecutableElement gradientMethod(RecordType type, Tree at) {
    ExecutableElement found = null;
    for (Element e : type.element().getEnclosedElements()) {
      if (e.getKind() == ElementKind.METHOD && Annotations.has(e, ELEMENT_GRADIENT)) {
        ExecutableElement m = (ExecutableElement) e;
        if (!m.getModifiers().contains(Modifier.STATIC) || m.getParameters().size() != 3
            || !isRecord(m.getReturnType(), type) || !m.getParameters().stream().allMatch(p -> isRecord(p.asType(), type))) {
          throw new KilnDiagnostic(at, Message.RECORD_ARRAY_FORM, "the @ElementGradient method '" + m.getSimpleName()
              + "' of " + type.name() + " is not static " + type.name() + " " + m.getSimpleName() + "(" + type.name()
              + " total, " + type.name() + " totalGradient, " + type.name() + " element)");
        }
        if (found != null) {
          throw new KilnDiagnostic(at, Message.RECORD_ARRAY_FORM, type.name() + " has two @ElementGradient methods");
        }
        found = m;
      }
    }
    return found;
  }

  /** The static, no-argument {@code @Identity} method of {@code type} returning it. */
  private static ExecutableElement identityMethod(RecordType type, Tree at) {
    ExecutableElement found = null;
    for (Element e : type.element().getEnclosedElements()) {
      if (e.getKind() == ElementKind.METHOD && Annotations.has(e, IDENTITY)) {
        ExecutableElement m = (ExecutableElement) e;
        if (!m.getModifiers().contains(Modifier.STATIC) || !m.getParameters().isEmpty() || !isRecord(m.getReturnType(), type)) {
          throw new KilnDiagnostic(at, Message.RECORD_ARRAY_FORM, "the @Identity method '" + m.getSimpleName() + "' of "
              + type.name() + " is not static, takes arguments or does not return a " + type.name());
        }
        if (found != null) {
          throw new KilnDiagnostic(at, Message.RECORD_ARRAY_FORM, type.name() + " has two @Identity methods");
        }
        found = m;
      }
    }
    if (found == null) {
      throw new KilnDiagnostic(at, Message.RECORD_ARRAY_FORM, type.name() + " has no @Identity method");
    }
    return found;
  }
}
