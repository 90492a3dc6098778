package dev.kiln.processor.frontend;

import dev.kiln.processor.diag.Reporter;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.OperatorKind;
import dev.kiln.processor.ir.Stmt;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import javax.lang.model.element.ExecutableElement;

/**
 * The mutable state of lowering one operator body: the locals in scope with their SSA values, the
 * path condition, the current loop scope and the statement list being filled.
 *
 * <p>A local holding a record value is kept as one {@link Local} per component, under the key
 * {@code name.component} ({@link #componentKey}), so that {@code if} merges and loops carry
 * components like any scalar local; {@link #records} says which names are records.
 */
final class LoweringState {
  final ExprFactory f;
  final Signature signature;
  final NameResolver names;
  final Inliner inliner;
  final Reporter reporter;
  final BoundsCheck bounds;

  LinkedHashMap<String, Local> env = new LinkedHashMap<>();
  /** The record locals in scope, by name ({@code this} inside an instance method of a record). */
  final Map<String, RecordType> records = new HashMap<>();
  /** Inside a record's method: that record (its methods callable unqualified), else null. */
  RecordType self;
  /** The record methods being inlined, innermost last, shared with nested states. */
  final Deque<ExecutableElement> inlining;
  Expr path;
  int scope;
  List<Stmt> out = new ArrayList<>();
  final Map<Expr, String> exprNames;
  int loops;

  LoweringState(ExprFactory f, Signature signature, NameResolver names, Inliner inliner, Reporter reporter) {
    this(f, signature, names, inliner, reporter, new ArrayDeque<>(), new HashMap<>());
  }

  private LoweringState(ExprFactory f, Signature signature, NameResolver names, Inliner inliner, Reporter reporter,
      Deque<ExecutableElement> inlining, Map<Expr, String> exprNames) {
    this.f = f;
    this.signature = signature;
    this.names = names;
    this.inliner = inliner;
    this.reporter = reporter;
    this.inlining = inlining;
    this.exprNames = exprNames;
    this.bounds =
        new BoundsCheck(
            signature.params().stream()
                .filter(p -> p instanceof dev.kiln.processor.ir.Param.Scalar s && s.dim())
                .map(dev.kiln.processor.ir.Param::name)
                .collect(java.util.stream.Collectors.toSet()));
    this.path = f.trueValue();
  }

  /**
   * The state for inlining a method of {@code owner} ({@code source}): no parameters of its own
   * (the caller binds the method's parameters as locals), names resolved in the record's
   * compilation unit, the caller's path condition and loop scope, and this state's names.
   */
  LoweringState forMethod(OperatorSource source, RecordType owner) {
    LoweringState child = new LoweringState(f, new Signature(OperatorKind.ELEMENTWISE, List.of(), null),
        names.in(source), inliner, reporter, inlining, exprNames);
    child.self = owner;
    child.path = path;
    child.scope = scope;
    child.loops = loops;
    return child;
  }

  /** Runs {@code body} with the path condition narrowed by {@code cond}. */
  <T> T underCondition(Expr cond, Supplier<T> body) {
    Expr saved = path;
    path = f.binary(BinaryOp.LAND, path, cond, scope);
    try {
      return body.get();
    } finally {
      path = saved;
    }
  }

  /** Names the value of a source local, for printing and generated code. */
  void name(Expr value, String local) {
    if (!value.operands().isEmpty()) {
      exprNames.putIfAbsent(value, varName(local));
    }
  }

  /** The key in {@link #env} of one component of a record local. */
  static String componentKey(String local, String component) {
    return local + "." + component;
  }

  /** The IR variable name for a local or a record component's key ({@code s.mean} is {@code s_mean}). */
  static String varName(String key) {
    return key.replace('.', '_');
  }

  /** Declares (or re-binds) the record local {@code name}; {@code value} null leaves it unassigned. */
  void putRecord(String name, RecordType type, RecordValue value, Local.ReadOnly readOnly) {
    records.put(name, type);
    for (int i = 0; i < type.components().size(); i++) {
      RecordType.Component c = type.components().get(i);
      Expr v = value == null ? null : value.components().get(i);
      if (v != null) {
        name(v, componentKey(name, c.name()));
      }
      env.put(componentKey(name, c.name()), new Local(c.type(), v, readOnly));
    }
  }

  /** The array of records {@code access} indexes (a parameter no local hides), or null. */
  Signature.RecordArray recordArray(com.sun.source.tree.ArrayAccessTree access) {
    if (access.getExpression() instanceof com.sun.source.tree.IdentifierTree id && !env.containsKey(id.getName().toString())) {
      return signature.recordArray(id.getName().toString());
    }
    return null;
  }

  /** The value of record local {@code name}, or null when some component is unassigned. */
  RecordValue record(String name) {
    RecordType type = records.get(name);
    List<Expr> values = new ArrayList<>();
    for (RecordType.Component c : type.components()) {
      Local l = env.get(componentKey(name, c.name()));
      if (l == null || l.value() == null) {
        return null;
      }
      values.add(l.value());
    }
    return new RecordValue(type, values);
  }

  /** Forgets a local going out of scope, with its components when it is a record. */
  void forget(String name) {
    env.remove(name);
    RecordType type = records.remove(name);
    if (type != null) {
      type.components().forEach(c -> env.remove(componentKey(name, c.name())));
    }
  }

  /** {@code names} with each record local among them replaced by its components' keys. */
  Set<String> expandRecords(Set<String> names) {
    Set<String> out = new LinkedHashSet<>();
    for (String n : names) {
      RecordType type = records.get(n);
      if (type == null) {
        out.add(n);
      } else {
        type.components().forEach(c -> out.add(componentKey(n, c.name())));
      }
    }
    return out;
  }
}
