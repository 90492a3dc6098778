package dev.kiln.processor.frontend;

import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.Tree;
import dev.kiln.processor.diag.KilnDiagnostic;
import dev.kiln.processor.diag.Message;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.UnaryOp;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.RecordComponentElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeMirror;

/**
 * Record values in operator bodies: which expressions are record-valued, their components as IR,
 * and calls of record methods, inlined. A record method's body is lowered like an elementwise
 * operator's (locals, {@code if}, {@code ?:}, early {@code return}s, no loops or arrays) in a
 * state of its own whose locals are the method's parameters and, for an instance method, the
 * receiver's components ({@code this.mean}, or {@code mean} where no local hides it). Records are
 * values: their fields are final, so nothing a method does can be seen but its result.
 */
final class RecordExpressions {
  private final LoweringState state;
  private final ExpressionLowering expressions;

  RecordExpressions(LoweringState state, ExpressionLowering expressions) {
    this.state = state;
    this.expressions = expressions;
  }

  /** A call of a record's method: the method, its record, and the receiver (null: static or implicit this). */
  record Call(ExecutableElement method, RecordType owner, ExpressionTree receiver, boolean implicitThis) {
    boolean isStatic() {
      return method.getModifiers().contains(Modifier.STATIC);
    }
  }

  /** The record type of {@code t} when its value is a record, else null. Lowers nothing. */
  RecordType typeOf(ExpressionTree t) {
    switch (t.getKind()) {
      case PARENTHESIZED:
        return typeOf(((ParenthesizedTree) t).getExpression());
      case IDENTIFIER: {
        String name = ((IdentifierTree) t).getName().toString();
        return state.env.containsKey(name) ? null : state.records.get(name);
      }
      case NEW_CLASS: {
        NewClassTree n = (NewClassTree) t;
        TypeElement type = state.names.type(n.getIdentifier());
        return type != null && type.getKind() == ElementKind.RECORD ? RecordType.of(type, n, state.inliner) : null;
      }
      case METHOD_INVOCATION: {
        Call call = resolve((MethodInvocationTree) t);
        if (call == null) {
          return null;
        }
        TypeElement returned = RecordType.recordElement(call.method().getReturnType());
        return returned == null ? null : RecordType.of(returned, t, state.inliner);
      }
      case ARRAY_ACCESS: {
        Signature.RecordArray records = recordArray((com.sun.source.tree.ArrayAccessTree) t);
        return records == null ? null : RecordType.of(records.record(), t, state.inliner);
      }
      case CONDITIONAL_EXPRESSION: {
        ConditionalExpressionTree c = (ConditionalExpressionTree) t;
        RecordType a = typeOf(c.getTrueExpression());
        return a != null ? a : typeOf(c.getFalseExpression());
      }
      default:
        return null;
    }
  }

  /** Lowers a record-valued expression to its components; {@code expected} (or null) is the type it must have. */
  RecordValue lower(ExpressionTree t, RecordType expected) {
    RecordValue v = lower(t);
    if (expected != null && !v.type().element().equals(expected.element())) {
      throw new KilnDiagnostic(t, Message.RECORD_VALUE,
          "'" + t + "' is a " + v.type().name() + " where a " + expected.name() + " is expected");
    }
    return v;
  }

  private RecordValue lower(ExpressionTree t) {
    switch (t.getKind()) {
      case PARENTHESIZED:
        return lower(((ParenthesizedTree) t).getExpression());
      case IDENTIFIER: {
        String name = ((IdentifierTree) t).getName().toString();
        if (typeOf(t) == null) {
          break;
        }
        RecordValue v = state.record(name);
        if (v == null) {
          throw new KilnDiagnostic(t, Message.UNSUPPORTED_EXPRESSION, "reading local '" + name + "' before it is assigned");
        }
        return v;
      }
      case NEW_CLASS:
        return construct((NewClassTree) t);
      case ARRAY_ACCESS: {
        com.sun.source.tree.ArrayAccessTree access = (com.sun.source.tree.ArrayAccessTree) t;
        Signature.RecordArray records = recordArray(access);
        if (records == null) {
          break;
        }
        Expr index = expressions.index(access, records.components().get(0));
        List<Expr> loads = new ArrayList<>();
        for (dev.kiln.processor.ir.Param.Array c : records.components()) {
          loads.add(state.f.load(c, index, state.path, state.scope));
        }
        return new RecordValue(RecordType.of(records.record(), t, state.inliner), loads);
      }
      case METHOD_INVOCATION: {
        Call call = resolve((MethodInvocationTree) t);
        if (call == null) {
          break;
        }
        Object v = call(call, (MethodInvocationTree) t);
        if (v instanceof RecordValue r) {
          return r;
        }
        throw new KilnDiagnostic(t, Message.RECORD_VALUE, "'" + t + "' is a number where a record is expected");
      }
      case CONDITIONAL_EXPRESSION: {
        ConditionalExpressionTree c = (ConditionalExpressionTree) t;
        Expr cond = expressions.lower(c.getCondition());
        if (cond.type() != ScalarType.BOOL) {
          throw new KilnDiagnostic(c.getCondition(), Message.UNSUPPORTED_EXPRESSION, "a condition of type " + cond.type().javaName());
        }
        RecordValue a = state.underCondition(cond, () -> lower(c.getTrueExpression()));
        RecordValue b = state.underCondition(state.f.unary(UnaryOp.NOT, cond), () -> lower(c.getFalseExpression(), a.type()));
        List<Expr> merged = new ArrayList<>();
        for (int i = 0; i < a.components().size(); i++) {
          merged.add(state.f.select(cond, a.components().get(i), b.components().get(i)));
        }
        return new RecordValue(a.type(), merged);
      }
      default:
        break;
    }
    throw new KilnDiagnostic(t, Message.RECORD_VALUE, "'" + t + "' is not a record value, where one is expected");
  }

  /**
   * The input array of records {@code access} reads, or null when it indexes no array of records;
   * reading an {@code @Out} or {@code @Reduce} one is refused.
   */
  private Signature.RecordArray recordArray(com.sun.source.tree.ArrayAccessTree access) {
    Signature.RecordArray records = state.recordArray(access);
    if (records != null && records.role() == dev.kiln.processor.ir.ArrayRole.REDUCE) {
      throw new KilnDiagnostic(access, Message.RECORD_ARRAY_FORM, "'" + access + "' is used outside an update r[i] = r[i].m(e)");
    }
    if (records != null && records.role() == dev.kiln.processor.ir.ArrayRole.OUT) {
      throw new KilnDiagnostic(access, Message.READ_OF_OUTPUT, records.name());
    }
    return records;
  }

  /** {@code new R(a, b, ...)}: one argument per component, converted as Java converts them. */
  private RecordValue construct(NewClassTree t) {
    RecordType type = typeOf(t);
    if (type == null) {
      throw new KilnDiagnostic(t, Message.ALLOCATION_IN_WORKER);
    }
    if (t.getClassBody() != null) {
      throw new KilnDiagnostic(t, Message.RECORD_FORM, type.name(), "an anonymous class");
    }
    if (t.getArguments().size() != type.components().size()) {
      throw new KilnDiagnostic(t, Message.RECORD_FORM, type.name(),
          "new " + type.name() + "(...) takes one value per component (" + type.components().size() + "), "
              + t.getArguments().size() + " given");
    }
    List<Expr> values = new ArrayList<>();
    for (int i = 0; i < t.getArguments().size(); i++) {
      RecordType.Component c = type.components().get(i);
      values.add(scalarArgument(t.getArguments().get(i), c.type(), type.name() + "'s component '" + c.name() + "'"));
    }
    return new RecordValue(type, values);
  }

  private Expr scalarArgument(ExpressionTree arg, ScalarType to, String what) {
    Expr a = expressions.lower(arg);
    if (!a.type().widensTo(to)) {
      throw new KilnDiagnostic(arg, Message.RECORD_VALUE,
          "'" + arg + "' is a " + a.type().javaName() + ", and " + what + " a " + to.javaName());
    }
    return state.f.cast(to, a);
  }

  /** The component {@code name} of the record value {@code receiver} ({@code o.mean}), or null when it is no record. */
  Expr field(MemberSelectTree t) {
    RecordType type = typeOf(t.getExpression());
    if (type == null) {
      return null;
    }
    if (type.indexOf(t.getIdentifier().toString()) < 0) {
      throw new KilnDiagnostic(t, Message.RECORD_FORM, type.name(), "it has no component '" + t.getIdentifier() + "'");
    }
    return lower(t.getExpression()).component(t.getIdentifier().toString());
  }

  /** Inside an instance method of a record, the receiver's component {@code name}, or null. */
  Expr implicitField(String name) {
    if (state.self == null || !state.records.containsKey("this") || state.self.indexOf(name) < 0) {
      return null;
    }
    return state.record("this").component(name);
  }

  /** The record method {@code t} calls, or null when it calls none. */
  Call resolve(MethodInvocationTree t) {
    ExpressionTree select = t.getMethodSelect();
    int arity = t.getArguments().size();
    if (select instanceof MemberSelectTree ms) {
      String name = ms.getIdentifier().toString();
      RecordType receiver = typeOf(ms.getExpression());
      if (receiver != null) {
        ExecutableElement m = method(receiver, name, arity, t);
        if (m == null) {
          throw new KilnDiagnostic(t, Message.RECORD_FORM, receiver.name(),
              "it declares no method '" + name + "' taking " + arity + " arguments (inherited methods such as"
                  + " equals, hashCode and toString are not inlined)");
        }
        return new Call(m, receiver, ms.getExpression(), false);
      }
      if (state.env.containsKey(ms.getExpression().toString()) || state.signature.param(ms.getExpression().toString()) != null) {
        return null;
      }
      TypeElement type = state.names.type(ms.getExpression());
      if (type != null && type.getKind() == ElementKind.RECORD && NameResolver.operatorIn(type, name) == null) {
        RecordType owner = RecordType.of(type, t, state.inliner);
        ExecutableElement m = method(owner, name, arity, t);
        if (m == null) {
          throw new KilnDiagnostic(t, Message.RECORD_FORM, owner.name(),
              "it declares no method '" + name + "' taking " + arity + " arguments");
        }
        if (!m.getModifiers().contains(Modifier.STATIC)) {
          throw new KilnDiagnostic(t, Message.RECORD_VALUE, "'" + name + "' is an instance method of " + owner.name() + ", called on the type");
        }
        return new Call(m, owner, null, false);
      }
      return null;
    }
    if (select instanceof IdentifierTree id && state.self != null) {
      ExecutableElement m = method(state.self, id.getName().toString(), arity, t);
      if (m == null || NameResolver.operatorIn(state.self.element(), m.getSimpleName().toString()) != null) {
        return null;
      }
      boolean instance = !m.getModifiers().contains(Modifier.STATIC);
      if (instance && !state.records.containsKey("this")) {
        throw new KilnDiagnostic(t, Message.RECORD_VALUE, "'" + id + "' is an instance method, called from a static one");
      }
      return new Call(m, state.self, null, instance);
    }
    return null;
  }

  /** The method of {@code owner} named {@code name} with {@code arity} parameters, or null; overloads of one arity are refused. */
  private static ExecutableElement method(RecordType owner, String name, int arity, Tree at) {
    ExecutableElement found = null;
    for (Element e : owner.element().getEnclosedElements()) {
      if (e.getKind() == ElementKind.METHOD && e.getSimpleName().contentEquals(name)
          && ((ExecutableElement) e).getParameters().size() == arity) {
        if (found != null) {
          throw new KilnDiagnostic(at, Message.RECORD_FORM, owner.name(),
              "it overloads '" + name + "' with " + arity + " parameters, and operator bodies are read before"
                  + " javac chooses among overloads (give them different names)");
        }
        found = (ExecutableElement) e;
      }
    }
    return found;
  }

  /** Runs the call: an {@link Expr} for a method returning a scalar, a {@link RecordValue} for one returning a record. */
  Object call(Call call, MethodInvocationTree t) {
    ExecutableElement m = call.method();
    RecordValue receiver = null;
    if (call.receiver() != null) {
      receiver = lower(call.receiver());
    } else if (call.implicitThis()) {
      receiver = state.record("this");
    }
    if (receiver != null) {
      for (RecordComponentElement c : call.owner().element().getRecordComponents()) {
        // an accessor javac declared (no tree of its own) of a record compiled here reads the component
        if (m.equals(c.getAccessor()) && state.inliner.source(m) == null && state.inliner.hasSource(call.owner().element())) {
          return receiver.component(c.getSimpleName().toString());
        }
      }
    }
    String what = call.owner().name() + "." + m.getSimpleName();
    List<? extends VariableElement> params = m.getParameters();
    List<Object> args = new ArrayList<>();
    for (int i = 0; i < params.size(); i++) {
      VariableElement p = params.get(i);
      ExpressionTree arg = t.getArguments().get(i);
      String name = p.getSimpleName().toString();
      TypeElement record = RecordType.recordElement(p.asType());
      if (record != null) {
        args.add(lower(arg, RecordType.of(record, arg, state.inliner)));
        continue;
      }
      ScalarType type = RecordType.scalar(p.asType());
      if (type == null || type == ScalarType.SHORT || type == ScalarType.BYTE) {
        throw new KilnDiagnostic(t, Message.RECORD_FORM, call.owner().name(),
            "the parameter '" + name + "' of '" + m.getSimpleName() + "' is a " + p.asType()
                + " (parameters are float, double, int, long, boolean or records)");
      }
      args.add(scalarArgument(arg, type, "parameter '" + name + "' of " + what + " is"));
    }
    return invoke(m, call.owner(), receiver, args, t);
  }

  /**
   * Inlines the record method {@code m} of {@code owner} on lowered arguments: {@code receiver}
   * (null for a static method) and one {@link RecordValue} or {@link Expr} per parameter, of the
   * parameter's type. An {@link Expr} for a method returning a scalar, a {@link RecordValue} for one
   * returning a record; {@code at} is where errors are reported.
   */
  Object invoke(ExecutableElement m, RecordType owner, RecordValue receiver, List<Object> args, Tree at) {
    String what = owner.name() + "." + m.getSimpleName();
    TypeMirror returned = m.getReturnType();
    TypeElement returnedRecord = RecordType.recordElement(returned);
    ScalarType returnedScalar = RecordType.scalar(returned);
    if (returnedRecord == null && returnedScalar == null) {
      throw new KilnDiagnostic(at, Message.RECORD_FORM, owner.name(),
          "its method '" + m.getSimpleName() + "' returns " + returned + " (methods an operator calls return a number, a boolean or a record)");
    }
    OperatorSource source = state.inliner.source(m);
    if (source == null || source.tree().getBody() == null) {
      throw new KilnDiagnostic(at, Message.RECORD_FORM, owner.name(),
          "the body of " + what + " is not compiled with this operator (Kiln inlines record methods from their"
              + " source; declare the record in this module)");
    }
    if (state.inlining.contains(m)) {
      throw new KilnDiagnostic(at, Message.RECURSION, what, state.inlining.peekLast().getSimpleName());
    }
    LoweringState inner = state.forMethod(source, owner);
    if (receiver != null) {
      inner.putRecord("this", receiver.type(), receiver, Local.ReadOnly.recordComponent());
    }
    List<? extends VariableElement> params = m.getParameters();
    for (int i = 0; i < params.size(); i++) {
      String name = params.get(i).getSimpleName().toString();
      if (args.get(i) instanceof RecordValue r) {
        inner.putRecord(name, r.type(), r, null);
      } else {
        Expr e = (Expr) args.get(i);
        inner.env.put(name, new Local(e.type(), e, null));
      }
    }
    RecordType resultRecord = returnedRecord == null ? null : RecordType.of(returnedRecord, at, state.inliner);
    StatementLowering body = new StatementLowering(inner, source, resultRecord, returnedScalar);
    state.inlining.addLast(m);
    try {
      body.statements(source.tree().getBody().getStatements());
    } finally {
      state.inlining.removeLast();
    }
    return resultRecord != null ? new RecordValue(resultRecord, body.recordResult()) : body.result();
  }
}
