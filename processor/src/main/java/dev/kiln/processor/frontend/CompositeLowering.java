package dev.kiln.processor.frontend;

import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewArrayTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.PrimitiveTypeTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.Trees;
import dev.kiln.processor.diag.KilnDiagnostic;
import dev.kiln.processor.diag.Message;
import dev.kiln.processor.diag.Reporter;
import dev.kiln.processor.ir.ArrayRole;
import dev.kiln.processor.ir.CompositeIr;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.transform.CompositeExpansion;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.ExecutableElement;

/**
 * Lowers the body of a composite operator: temporaries, int sizes and calls of grid (or composite)
 * operators, in order. Checks every call against its callee: sizes are polynomials over the
 * composite's {@code @Dim}s, arrays are whole parameters or temporaries whose lengths match the
 * callee's {@code @Shape}, inputs are never written, and every array is written before it is read.
 * Calls of composites are expanded in place, so the result is a flat list of grid-operator calls.
 */
final class CompositeLowering {
  /** How the front end gives this lowering the IR of a called operator. */
  interface Callees {
    /** The callee's IR (grid or composite), or throws after reporting. */
    OperatorIr operator(ExecutableElement callee, Tree callSite);

    /** The composite body of a callee whose kind is COMPOSITE. */
    CompositeIr composite(OperatorIr.Composite callee);
  }

  private final Reporter reporter;
  private final OperatorSource op;
  private final Signature signature;
  private final NameResolver names;
  private final Callees callees;
  private final Trees trees;
  private final Map<String, Poly> sizes = new HashMap<>();
  private final Map<String, CompositeIr.Temp> temps = new LinkedHashMap<>();
  /** Temporaries {@code R[] t = new R[n]} of a record: the record and one temporary a component, in order. */
  private final Map<String, RecordTemp> recordTemps = new LinkedHashMap<>();
  private final List<CompositeIr.Call> calls = new ArrayList<>();
  private final Map<String, Integer> callCounts = new HashMap<>();

  CompositeLowering(Reporter reporter, OperatorSource op, Signature signature, NameResolver names, Callees callees, Trees trees) {
    this.reporter = reporter;
    this.op = op;
    this.signature = signature;
    this.names = names;
    this.callees = callees;
    this.trees = trees;
    for (Param p : signature.params()) {
      if (p instanceof Param.Scalar s && s.dim()) {
        sizes.put(s.name(), Poly.symbol(s.name()));
      }
    }
  }

  /** Whether a body without @Parallel loops is a composite: it calls a void operator or makes an array. */
  static boolean isComposite(List<? extends StatementTree> body, NameResolver names) {
    for (StatementTree s : body) {
      if (s instanceof com.sun.source.tree.ForLoopTree) {
        return false;
      }
    }
    for (StatementTree s : body) {
      if (s instanceof VariableTree v && v.getInitializer() instanceof NewArrayTree) {
        return true;
      }
      if (s instanceof ExpressionStatementTree e && e.getExpression() instanceof MethodInvocationTree call
          && names.callee(call) instanceof Callee.Operator target
          && !target.element().getReturnType().getKind().isPrimitive()) {
        return true;
      }
    }
    return false;
  }

  /** The composite, or null after reporting its errors. */
  CompositeIr lower(List<? extends StatementTree> body) {
    int before = reporter.errorCount();
    for (StatementTree s : body) {
      try {
        statement(s);
      } catch (KilnDiagnostic d) {
        reporter.report(d.tree() != null ? d.tree() : s, op.unit(), d.kilnMessage(), d.args());
      }
    }
    if (reporter.errorCount() != before) {
      return null;
    }
    OperatorIr.Composite sig = new OperatorIr.Composite(op.owner().getQualifiedName().toString(), op.name(),
        signature.params());
    CompositeIr composite = new CompositeIr(sig, List.copyOf(temps.values()), calls);
    checkDataflow(composite);
    return reporter.errorCount() == before ? composite : null;
  }

  private void statement(StatementTree s) {
    if (s instanceof VariableTree v) {
      declaration(v);
      return;
    }
    if (s instanceof ExpressionStatementTree e && e.getExpression() instanceof MethodInvocationTree call) {
      call(call);
      return;
    }
    throw new KilnDiagnostic(s, Message.COMPOSITE_STATEMENT, TreeText.describe(s));
  }

  private void declaration(VariableTree v) {
    String name = v.getName().toString();
    if (v.getInitializer() instanceof NewArrayTree n && n.getDimensions().size() == 1 && n.getInitializers() == null
        && n.getType() instanceof PrimitiveTypeTree t) {
      ScalarType type = ScalarType.ofJavaName(t.getPrimitiveTypeKind().name().toLowerCase(java.util.Locale.ROOT));
      if (type != ScalarType.FLOAT && type != ScalarType.DOUBLE && type != ScalarType.INT && type != ScalarType.LONG) {
        throw new KilnDiagnostic(v, Message.COMPOSITE_STATEMENT, "a temporary of type " + t + "[]");
      }
      Poly length = size(n.getDimensions().get(0));
      if (temps.containsKey(name)) {
        throw new KilnDiagnostic(v, Message.COMPOSITE_STATEMENT, "a second temporary named '" + name + "'");
      }
      temps.put(name, new CompositeIr.Temp(name, type, length, TreeRef.of(v)));
      return;
    }
    if (v.getInitializer() instanceof NewArrayTree n && n.getDimensions().size() == 1 && n.getInitializers() == null
        && trees.getElement(trees.getPath(op.unit(), v)) instanceof javax.lang.model.element.VariableElement local
        && local.asType() instanceof javax.lang.model.type.ArrayType array
        && RecordType.recordElement(array.getComponentType()) != null) {
      recordTemp(v, name, RecordType.recordElement(array.getComponentType()), size(n.getDimensions().get(0)));
      return;
    }
    if (v.getType() instanceof PrimitiveTypeTree t && t.getPrimitiveTypeKind() == javax.lang.model.type.TypeKind.INT
        && v.getInitializer() != null) {
      sizes.put(name, size(v.getInitializer()));
      return;
    }
    throw new KilnDiagnostic(v, Message.COMPOSITE_STATEMENT, "the declaration of '" + name + "'");
  }

  /**
   * A temporary of records, {@code R[] t = new R[n]}: one temporary of numbers a component, named
   * {@code t_<component>} as launchers name a record parameter's component arrays.
   */
  private void recordTemp(VariableTree v, String name, javax.lang.model.element.TypeElement record, Poly length) {
    if (temps.containsKey(name) || recordTemps.containsKey(name)) {
      throw new KilnDiagnostic(v, Message.COMPOSITE_STATEMENT, "a second temporary named '" + name + "'");
    }
    List<String> components = new ArrayList<>();
    for (javax.lang.model.element.RecordComponentElement c : record.getRecordComponents()) {
      ScalarType type = SignatureReader.componentType(c);
      if (type == null) {
        throw new KilnDiagnostic(v, Message.RECORD_ARRAY_FORM, "the component '" + c.getSimpleName() + "' of "
            + record.getSimpleName() + " is a " + c.asType() + ", and the components of a record in an array are"
            + " float, double, int or long");
      }
      String component = SignatureReader.componentName(name, c);
      if (temps.containsKey(component) || signature.param(component) != null || sizes.containsKey(component)) {
        throw new KilnDiagnostic(v, Message.RECORD_ARRAY_FORM, "the temporary of the components '" + c.getSimpleName()
            + "' of '" + name + "' would be named '" + component + "', as another array or size is (rename one)");
      }
      temps.put(component, new CompositeIr.Temp(component, type, length, TreeRef.of(v)));
      components.add(component);
    }
    if (components.isEmpty()) {
      throw new KilnDiagnostic(v, Message.RECORD_ARRAY_FORM, record.getSimpleName() + " has no components");
    }
    recordTemps.put(name, new RecordTemp(SignatureReader.binaryName(record), record.getSimpleName().toString(), components));
  }

  /** An array of records of the composite: the record's binary and simple names, its components' arrays in order. */
  private record RecordTemp(String recordClass, String simpleName, List<String> components) {}

  /** A size expression: @Dim parameters, int sizes declared before, int literals, + - * and parentheses. */
  private Poly size(ExpressionTree e) {
    if (e instanceof ParenthesizedTree p) {
      return size(p.getExpression());
    }
    if (e instanceof LiteralTree l && l.getValue() instanceof Integer i) {
      return Poly.constant(i);
    }
    if (e instanceof IdentifierTree id && sizes.containsKey(id.getName().toString())) {
      return sizes.get(id.getName().toString());
    }
    if (e instanceof BinaryTree b) {
      switch (b.getKind()) {
        case PLUS: return size(b.getLeftOperand()).add(size(b.getRightOperand()));
        case MINUS: return size(b.getLeftOperand()).subtract(size(b.getRightOperand()));
        case MULTIPLY: return size(b.getLeftOperand()).multiply(size(b.getRightOperand()));
        default: break;
      }
    }
    throw new KilnDiagnostic(e, Message.COMPOSITE_STATEMENT, "the size '" + e + "' (sizes are made of @Dim"
        + " parameters, int sizes declared before, int literals, +, - and *)");
  }

  private void call(MethodInvocationTree call) {
    Callee callee = names.callee(call);
    if (!(callee instanceof Callee.Operator target)) {
      String what = callee instanceof Callee.Unknown u ? u.description() : "a math function";
      throw new KilnDiagnostic(call, Message.COMPOSITE_STATEMENT, "a call of " + what);
    }
    ExecutableElement element = target.element();
    if (element.getReturnType().getKind().isPrimitive()) {
      throw elementwiseCall(call, element);
    }
    OperatorIr ir = callees.operator(element, call);
    List<? extends ExpressionTree> sourceArgs = call.getArguments();
    List<Param> params = ir.params();
    if (sourceArgs.size() != element.getParameters().size()) {
      throw new KilnDiagnostic(call, Message.ARGUMENT_MISMATCH, element.getSimpleName(),
          "it takes " + element.getParameters().size() + " arguments, not " + sourceArgs.size());
    }
    // one argument per IR parameter: a record array's argument once for each of its components
    List<ExpressionTree> args = new ArrayList<>();
    for (Param p : params) {
      args.add(sourceArgs.get(p.position()));
    }
    Map<String, Poly> dims = new LinkedHashMap<>();
    List<CompositeIr.Arg> bound = new ArrayList<>();
    for (int i = 0; i < params.size(); i++) {
      bound.add(params.get(i) instanceof Param.Array a && a.record() != null
          ? recordArgument(ir, a, args.get(i))
          : argument(ir, params.get(i), args.get(i), dims));
    }
    for (int i = 0; i < params.size(); i++) {
      if (params.get(i) instanceof Param.Array a && bound.get(i) instanceof CompositeIr.Arg.Tensor t) {
        checkLength(ir, a, t, dims, args.get(i));
      }
    }
    checkWrites(ir, bound, args, call);
    checkRecordsFilled(ir, bound, args);
    long line = line(call);
    if (ir instanceof OperatorIr.Grid grid) {
      calls.add(new CompositeIr.Call(nextId(ir.name()), grid, dims, bound, TreeRef.of(call), line));
    } else if (ir instanceof OperatorIr.Composite composite) {
      java.util.Set<String> taken = new java.util.HashSet<>(sizes.keySet());
      signature.params().forEach(p -> taken.add(p.name()));
      new CompositeExpansion(callees.composite(composite), dims, bound, temps, taken, TreeRef.of(call), line, this::nextId).expandInto(calls);
    } else {
      throw elementwiseCall(call, element); // a map: refused above by its return type already
    }
  }

  /** A composite calls grid operators and composites; a map is called inside a worker. */
  private static KilnDiagnostic elementwiseCall(Tree call, ExecutableElement element) {
    return new KilnDiagnostic(call, Message.COMPOSITE_STATEMENT, "a call of the elementwise operator '"
        + element.getSimpleName() + "' (call it inside a grid operator's worker)");
  }

  private String nextId(String callee) {
    int n = callCounts.merge(callee, 1, Integer::sum);
    return callee + "#" + n;
  }

  private long line(Tree t) {
    long pos = trees.getSourcePositions().getStartPosition(op.unit(), t);
    return pos < 0 ? 0 : op.unit().getLineMap().getLineNumber(pos);
  }

  private CompositeIr.Arg argument(OperatorIr callee, Param p, ExpressionTree arg, Map<String, Poly> dims) {
    if (p instanceof Param.Scalar s && s.dim()) {
      Poly value;
      try {
        value = size(arg);
      } catch (KilnDiagnostic d) {
        throw new KilnDiagnostic(arg, Message.COMPOSITE_ARGUMENT, arg, callee.name(), p.name(),
            "a @Dim is given a size made of @Dim parameters, int sizes, int literals, +, - and *");
      }
      dims.put(s.name(), value);
      return new CompositeIr.Arg.Size(value);
    }
    if (p instanceof Param.Array) {
      if (arg instanceof IdentifierTree id) {
        String name = id.getName().toString();
        if (temps.containsKey(name) || signature.param(name) instanceof Param.Array) {
          return new CompositeIr.Arg.Tensor(name);
        }
      }
      throw new KilnDiagnostic(arg, Message.COMPOSITE_ARGUMENT, arg, callee.name(), p.name(),
          "pass an array parameter of the composite or a temporary, by name");
    }
    Param.Scalar s = (Param.Scalar) p;
    ExpressionTree e = arg instanceof ParenthesizedTree pt ? pt.getExpression() : arg;
    if (e instanceof IdentifierTree id && signature.param(id.getName().toString()) instanceof Param.Scalar mine && !mine.dim()) {
      return new CompositeIr.Arg.Value(mine, 0);
    }
    Double literal = literal(e);
    if (literal != null) {
      return new CompositeIr.Arg.Value(null, literal);
    }
    if (s.type() == ScalarType.INT) {
      try {
        return new CompositeIr.Arg.Size(size(arg)); // a size of the composite's @Dims: columns(B, 2*H, H, H, x, g)
      } catch (KilnDiagnostic notASize) {
        // reported below
      }
    }
    throw new KilnDiagnostic(arg, Message.COMPOSITE_ARGUMENT, arg, callee.name(), s.name(),
        s.type() == ScalarType.INT
            ? "pass a scalar parameter of the composite, a literal, or a size made of @Dim parameters, int sizes,"
                + " int literals, +, - and *"
            : "pass a scalar parameter of the composite or a literal");
  }

  /** The temporary of one component of a record temporary passed for a callee's array of records. */
  private CompositeIr.Arg recordArgument(OperatorIr callee, Param.Array component, ExpressionTree arg) {
    Param.RecordSlot slot = component.record();
    ExpressionTree e = arg instanceof ParenthesizedTree pt ? pt.getExpression() : arg;
    String name = e instanceof IdentifierTree id ? id.getName().toString() : null;
    RecordTemp temp = name == null ? null : recordTemps.get(name);
    Signature.RecordArray own = name == null ? null : signature.recordArray(name);
    if (temp == null && own != null) {
      List<String> components = own.components().stream().map(Param.Array::name).toList();
      temp = new RecordTemp(SignatureReader.binaryName(own.record()), own.record().getSimpleName().toString(), components);
    }
    if (temp != null) {
      if (!temp.recordClass().equals(slot.recordClass())) {
        throw new KilnDiagnostic(arg, Message.COMPOSITE_ARGUMENT, arg, callee.name(), slot.param(),
            "'" + e + "' holds " + temp.simpleName() + " records, and '" + slot.param() + "' takes "
                + slot.recordNames().get(slot.recordNames().size() - 1) + " records");
      }
      return new CompositeIr.Arg.Tensor(temp.components().get(slot.index()));
    }
    throw new KilnDiagnostic(arg, Message.COMPOSITE_ARGUMENT, arg, callee.name(), slot.param(),
        "pass an array of records of the composite (a parameter, or a temporary R[] t = new R[n]), by name");
  }

  /**
   * A record temporary starts as nulls in Java, and the records of the composite's own {@code @Out}
   * array are the caller's, which its launcher does not copy in: a call that reads either or combines
   * into it needs an earlier call to have written its records (an @Out array of records written as
   * {@code r[i] = e}).
   */
  private void checkRecordsFilled(OperatorIr callee, List<CompositeIr.Arg> bound, List<ExpressionTree> args) {
    List<Param> params = callee.params();
    for (int i = 0; i < params.size(); i++) {
      if (params.get(i) instanceof Param.Array a && a.record() != null && a.role() != ArrayRole.OUT
          && bound.get(i) instanceof CompositeIr.Arg.Tensor t && startsUnwritten(t.name()) && !written(calls, t.name())) {
        String record = a.record().param();
        throw new KilnDiagnostic(args.get(i), Message.RECORD_ARRAY_FORM, "'" + args.get(i) + "' is passed to "
            + callee.name() + (a.role() == ArrayRole.REDUCE ? ", which combines into" : ", which reads") + " '" + record
            + "', before any call writes its records: a new array of records holds nulls in Java, and a composite's"
            + " @Out array is not read from its caller (fill it first with an operator that writes each record as "
            + record + "[i] = e, e.g. the record's identity; or make the composite's array @Out @Reduce)");
      }
    }
  }

  /** A component of a record temporary, or of the composite's own {@code @Out} (not {@code @Reduce}) array of records. */
  private boolean startsUnwritten(String tensor) {
    return temps.containsKey(tensor)
        || signature.param(tensor) instanceof Param.Array own && own.record() != null && own.role() == ArrayRole.OUT;
  }

  private static Double literal(ExpressionTree e) {
    if (e instanceof LiteralTree l && l.getValue() instanceof Number n) {
      return n.doubleValue();
    }
    if (e instanceof LiteralTree l && l.getValue() instanceof Boolean b) {
      return b ? 1.0 : 0.0;
    }
    if (e instanceof UnaryTree u && u.getKind() == Tree.Kind.UNARY_MINUS) {
      Double inner = literal(u.getExpression());
      return inner == null ? null : -inner;
    }
    return null;
  }

  private void checkLength(OperatorIr callee, Param.Array p, CompositeIr.Arg.Tensor t, Map<String, Poly> dims, ExpressionTree arg) {
    Poly expected = p.shape().length().substitute(dims);
    Poly actual = length(t.name());
    if (!expected.equals(actual)) {
      throw new KilnDiagnostic(arg, Message.COMPOSITE_SHAPE, t.name(), callee.name(), actual, p.name(),
          p.shape().text(), expected);
    }
  }

  private Poly length(String tensor) {
    CompositeIr.Temp temp = temps.get(tensor);
    return temp != null ? temp.length() : ((Param.Array) signature.param(tensor)).shape().length();
  }

  private void checkWrites(OperatorIr callee, List<CompositeIr.Arg> bound, List<? extends ExpressionTree> args, Tree call) {
    List<Param> params = callee.params();
    for (int i = 0; i < params.size(); i++) {
      if (!(params.get(i) instanceof Param.Array a) || !(bound.get(i) instanceof CompositeIr.Arg.Tensor t)) {
        continue;
      }
      if (a.role() != ArrayRole.IN && signature.param(t.name()) instanceof Param.Array mine && mine.role() == ArrayRole.IN) {
        throw new KilnDiagnostic(args.get(i), Message.COMPOSITE_WRITES_INPUT, callee.name(), t.name(), op.name());
      }
      for (int j = i + 1; j < params.size(); j++) {
        if (params.get(j) instanceof Param.Array b && bound.get(j) instanceof CompositeIr.Arg.Tensor u
            && u.name().equals(t.name()) && (a.role() != ArrayRole.IN || b.role() != ArrayRole.IN)) {
          throw new KilnDiagnostic(args.get(j), Message.COMPOSITE_ALIAS, t.name(), callee.name(), a.name(), b.name());
        }
      }
    }
  }

  /** Every array is written before it is read: no call writes an array that an earlier call read. */
  private void checkDataflow(CompositeIr composite) {
    Map<String, String> readBy = new HashMap<>();
    for (CompositeIr.Call c : composite.calls()) {
      for (int i = 0; i < c.args().size(); i++) {
        if (c.args().get(i) instanceof CompositeIr.Arg.Tensor t && c.callee().params().get(i) instanceof Param.Array a
            && a.role() != ArrayRole.IN && readBy.containsKey(t.name())) {
          reporter.report(TreeRef.tree(c.origin()), op.unit(), Message.COMPOSITE_REWRITE, c.callee().name(), t.name(), readBy.get(t.name()));
        }
      }
      for (int i = 0; i < c.args().size(); i++) {
        if (c.args().get(i) instanceof CompositeIr.Arg.Tensor t && c.callee().params().get(i) instanceof Param.Array a
            && a.role() == ArrayRole.IN) {
          readBy.putIfAbsent(t.name(), c.callee().name());
        }
      }
    }
    for (Param p : signature.params()) {
      if (p instanceof Param.Array a && a.role() != ArrayRole.IN && !written(composite.calls(), a.name())) {
        reporter.report(op.tree().getParameters().get(a.position()), op.unit(), Message.OUT_NEVER_WRITTEN, a.name(), op.name());
      }
    }
  }

  /** Whether one of {@code calls} writes {@code tensor} (passes it to a parameter that is not an input). */
  private static boolean written(List<CompositeIr.Call> calls, String tensor) {
    for (CompositeIr.Call c : calls) {
      for (int i = 0; i < c.args().size(); i++) {
        if (c.args().get(i) instanceof CompositeIr.Arg.Tensor t && t.name().equals(tensor)
            && ((Param.Array) c.callee().params().get(i)).role() != ArrayRole.IN) {
          return true;
        }
      }
    }
    return false;
  }
}
