package dev.kiln.processor.codegen;

import com.palantir.javapoet.CodeBlock;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Monoid;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.ReduceKind;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Stmt;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Emits a worker's IR as structured C-family code, in the language a {@link Syntax} gives (Java
 * for CPU kernels, CUDA C). Code lives in nested scopes (the kernel prologue, one per grid
 * loop, one per sequential loop); every expression is placed in the outermost scope where its
 * operands exist, so loop-invariant work is hoisted, and a node used more than once (or named in
 * the source) is computed once into a {@code final} local. Array reads and integer divisions stay
 * in the scope they were written in, so nothing that may trap runs where the source would not.
 */
public final class BodyEmitter {
  private static final class Scope {
    final CodeBlock.Builder code = CodeBlock.builder();
    final Map<Expr, String> temps = new HashMap<>();
  }

  private final Syntax syntax;
  private final Names names;
  private final Map<Expr, String> sourceNames;
  private final Map<Expr, Integer> uses = new HashMap<>();
  private final Map<Expr.Var, String> varNames = new HashMap<>();
  private final Map<Expr.Var, Integer> varDepth = new HashMap<>();
  private final Map<Integer, Integer> loopDepth = new HashMap<>();
  private final Map<Param.Array, String> targets = new HashMap<>();
  private final Map<Param.Array, String> accumulators = new HashMap<>();
  private final Map<Expr.Load, CodeBlock> laneLoads = new HashMap<>();
  private final Map<Param.Array, CodeBlock> laneTargets = new HashMap<>();
  private final Map<Param.Array, String[]> checked = new HashMap<>(); // {length, error flag}
  private Set<Expr> checkedLoads = Set.of();
  private Set<Stmt.Store> checkedStores = Set.of();
  private Map<Param.Array, String> loadLengths = Map.of();
  private String loadFlag;
  private final Map<Expr, Integer> depthMemo = new HashMap<>();
  private final List<Scope> scopes = new ArrayList<>();
  private int workerDepth;
  private LoopLowering lowering;
  /** Whether the expression being written is an array index (see {@link Syntax#binary(BinaryOp, ScalarType, CodeBlock, CodeBlock, boolean)}). */
  private boolean inIndex;

  public BodyEmitter(Syntax syntax, Names names, Map<Expr, String> sourceNames) {
    this.syntax = syntax;
    this.names = names;
    this.sourceNames = sourceNames;
  }

  // ---- set-up ----

  /** Offers every sequential loop to {@code lowering} before emitting it plainly. */
  public void lowering(LoopLowering lowering) {
    this.lowering = lowering;
  }

  /** Counts uses of every node reachable from these statements and results. */
  public void countUses(List<Stmt> body, List<Expr> extraRoots) {
    Set<Expr> seen = new HashSet<>();
    for (Expr e : extraRoots) {
      use(e, seen);
    }
    countStatements(body, seen);
  }

  private void countStatements(List<Stmt> body, Set<Expr> seen) {
    for (Stmt s : body) {
      use(s.guard(), seen);
      if (s instanceof Stmt.Store st) {
        use(st.index(), seen);
        use(st.value(), seen);
      } else if (s instanceof Stmt.Accumulate a) {
        use(a.index(), seen);
        use(a.value(), seen);
      } else if (s instanceof Stmt.Combine c) {
        use(c.index(), seen);
        c.values().forEach(v -> use(v, seen));
      } else {
        Stmt.Loop l = (Stmt.Loop) s;
        use(l.lo(), seen);
        use(l.hi(), seen);
        for (Stmt.Carried c : l.carried()) {
          use(c.init(), seen);
          use(c.next(), seen);
        }
        countStatements(l.body(), seen);
      }
    }
  }

  private void use(Expr e, Set<Expr> seen) {
    uses.merge(e, 1, Integer::sum);
    if (seen.add(e)) {
      for (Expr o : e.operands()) {
        use(o, seen);
      }
    }
  }

  /** Where stores and accumulations into {@code array} go (a partial-result array, say). */
  public void target(Param.Array array, String javaName) {
    targets.put(array, javaName);
  }

  /**
   * Checks the reads {@code loads} (loads at an index computed from data) against their arrays'
   * lengths ({@code lengths}: array to the name of its length): outside {@code [0, length)} such a
   * read gives 0 and sets {@code flag[0] = 1} (device code cannot throw).
   */
  public void checkedLoads(Set<Expr> loads, Map<Param.Array, String> lengths, String flag) {
    checkedAccesses(loads, Set.of(), lengths, flag);
  }

  /**
   * As {@link #checkedLoads}, and the stores {@code stores} too: outside {@code [0, length)} such a
   * store writes nothing and sets {@code flag[0] = 1}.
   */
  public void checkedAccesses(Set<Expr> loads, Set<Stmt.Store> stores, Map<Param.Array, String> lengths, String flag) {
    this.checkedLoads = Set.copyOf(loads);
    this.checkedStores = Set.copyOf(stores);
    this.loadLengths = Map.copyOf(lengths);
    this.loadFlag = flag;
  }

  /**
   * Guards accumulations into {@code array} by its length: an index outside {@code [0, length)}
   * accumulates nothing and sets {@code errorFlag[0] = 1} instead (device code cannot throw).
   */
  public void checkedTarget(Param.Array array, String length, String errorFlag) {
    checked.put(array, new String[] {length, errorFlag});
  }

  /**
   * Makes accumulations into {@code array} fold into the local {@code name} instead ({@code name =
   * name (op) value}): a reducing kernel's per-thread register.
   */
  public void accumulator(Param.Array array, String name) {
    accumulators.put(array, name);
  }

  /**
   * Makes {@code load} read {@code value} instead of its array (a lane of a vector already loaded):
   * for a vector kernel's workers. Until {@link #clearLanes}.
   */
  public void laneLoad(Expr.Load load, CodeBlock value) {
    laneLoads.put(load, value);
  }

  /**
   * Makes stores into {@code array} assign {@code lvalue} instead, whatever their index (a lane of a
   * vector stored later): for a vector kernel's workers, whose stores are all at the worker's own
   * index. Until {@link #clearLanes}.
   */
  public void laneTarget(Param.Array array, CodeBlock lvalue) {
    laneTargets.put(array, lvalue);
  }

  /** Ends {@link #laneLoad} and {@link #laneTarget}. */
  public void clearLanes() {
    laneLoads.clear();
    laneTargets.clear();
  }

  /** Binds a variable to a Java name, defined in the scope at {@code depth}. */
  public void bind(Expr.Var v, String javaName, int depth) {
    varNames.put(v, javaName);
    varDepth.put(v, depth);
  }

  /**
   * Declares that the code of sequential loop {@code loopId} is emitted in the scope at {@code
   * depth}: its reads stay there. For a {@link LoopLowering} that writes the loop's body itself.
   */
  public void loopScope(int loopId, int depth) {
    loopDepth.put(loopId, depth);
  }

  /** The scope of the worker's top level (array reads outside loops stay there). */
  public void setWorkerDepth(int depth) {
    this.workerDepth = depth;
  }

  public void openScope() {
    scopes.add(new Scope());
  }

  public CodeBlock closeScope() {
    return scopes.remove(scopes.size() - 1).code.build();
  }

  public int depth() {
    return scopes.size() - 1;
  }

  /** Appends code to the current scope. */
  public void add(CodeBlock code) {
    current().code.add(code);
  }

  private Scope current() {
    return scopes.get(scopes.size() - 1);
  }

  // ---- statements ----

  public void statements(List<Stmt> body) {
    for (Stmt s : body) {
      if (s instanceof Stmt.Store st && laneTargets.containsKey(st.array())) {
        guarded(st.guard(), CodeBlock.builder().addStatement("$L = $L", laneTargets.get(st.array()), expr(st.value())).build());
      } else if (s instanceof Stmt.Store st) {
        CodeBlock index = index(st.index());
        CodeBlock value = expr(st.value());
        CodeBlock write = CodeBlock.builder().addStatement("$N[$L] = $L", target(st.array()), index, value).build();
        if (checkedStores.contains(st) && !targets.containsKey(st.array())) {
          write = inBounds(index, loadLengths.get(st.array()), loadFlag, write);
        }
        guarded(st.guard(), write);
      } else if (s instanceof Stmt.Accumulate a) {
        guarded(a.guard(), accumulate(a));
      } else if (s instanceof Stmt.Combine c) {
        guarded(c.guard(), combine(c));
      } else {
        loop((Stmt.Loop) s);
      }
    }
  }

  private String target(Param.Array array) {
    return targets.getOrDefault(array, syntax.identifier(array.name()));
  }

  /**
   * Appends {@code code} under {@code guard}. Every expression {@code code} uses was emitted
   * before this call, so temporaries it made sit before the {@code if}, visible after it too.
   */
  private void guarded(Expr guard, CodeBlock code) {
    if (guard instanceof Expr.Const c && c.isTrue()) {
      current().code.add(code);
      return;
    }
    CodeBlock g = expr(guard);
    current().code.beginControlFlow("if ($L)", g).add(code).endControlFlow();
  }

  private CodeBlock accumulate(Stmt.Accumulate a) {
    String register = accumulators.get(a.array());
    if (register != null) {
      CodeBlock value = expr(a.value());
      return CodeBlock.builder()
          .addStatement("$N = $L", register, syntax.combine(a.op(), a.array().elementType(), CodeBlock.of("$N", register), value))
          .build();
    }
    String t = target(a.array());
    boolean simple = a.op() == ReduceKind.SUM || a.op() == ReduceKind.PRODUCT || a.index().operands().isEmpty();
    CodeBlock index = simple ? index(a.index()) : CodeBlock.of("$N", materializeIndex(a.index(), depth()));
    CodeBlock value = expr(a.value());
    CodeBlock accumulate = syntax.accumulate(a.op(), a.array().elementType(), t, index, value);
    String[] check = checked.get(a.array());
    return check == null ? accumulate : inBounds(index, check[0], check[1], accumulate);
  }

  /** {@code r[i] = r[i].m(value)} over the component arrays ({@link #combineInto}). */
  private CodeBlock combine(Stmt.Combine c) {
    CodeBlock index = c.index().operands().isEmpty() ? index(c.index()) : CodeBlock.of("$N", materializeIndex(c.index(), depth()));
    List<CodeBlock> into = new ArrayList<>();
    List<CodeBlock> values = new ArrayList<>();
    for (int i = 0; i < c.arrays().size(); i++) {
      into.add(CodeBlock.of("$N[$L]", target(c.arrays().get(i)), index));
      values.add(expr(c.values().get(i)));
    }
    CodeBlock code = combineInto(syntax, names, c.monoid(), into, values);
    String[] check = checked.get(c.arrays().get(0));
    return check == null ? code : inBounds(index, check[0], check[1], code);
  }

  /**
   * The statements {@code op} runs once after every worker ({@link
   * dev.kiln.processor.ir.OperatorIr.Grid#finish}), outside any worker's scope, under a comment
   * saying so; empty when it has none. The CPU kernel emits them after folding the chunks' totals,
   * the CUDA kernels in the thread that stores or folds the total.
   */
  public static CodeBlock finish(Syntax syntax, dev.kiln.processor.ir.OperatorIr.Grid op, Names names) {
    if (!op.finishes()) {
      return CodeBlock.of("");
    }
    BodyEmitter emitter = new BodyEmitter(syntax, names, op.names());
    emitter.countUses(op.finish(), List.of());
    emitter.openScope();
    emitter.setWorkerDepth(0);
    emitter.statements(op.finish());
    return CodeBlock.builder().add("// after every worker: the totals are complete\n").add(emitter.closeScope()).build();
  }

  /**
   * {@code into = into.m(from)} for the record whose components are the lvalues {@code into} and
   * the values {@code from}: each read into a local, the monoid's method applied to those (its nodes
   * emitted afresh each time, by an emitter of their own), each result stored into its lvalue. The
   * one form of a combine: a worker's update, and the CPU and CUDA folds of partial results.
   */
  public static CodeBlock combineInto(Syntax syntax, Names names, Monoid monoid, List<CodeBlock> into,
      List<CodeBlock> from) {
    CodeBlock.Builder code = CodeBlock.builder();
    BodyEmitter method = new BodyEmitter(syntax, names, Map.of());
    method.countUses(List.of(), monoid.combined());
    method.openScope();
    for (int i = 0; i < monoid.size(); i++) {
      String component = monoid.components().get(i);
      CodeBlock type = syntax.constType(monoid.left().get(i).type());
      String a = names.fresh(syntax.identifier("a_" + component));
      String b = names.fresh(syntax.identifier("b_" + component));
      code.addStatement("$L $N = $L", type, a, into.get(i));
      code.addStatement("$L $N = $L", type, b, from.get(i));
      method.bind(monoid.left().get(i), a, 0);
      method.bind(monoid.right().get(i), b, 0);
    }
    method.setWorkerDepth(0);
    List<CodeBlock> values = new ArrayList<>();
    monoid.combined().forEach(e -> values.add(method.expr(e)));
    List<String> results = new ArrayList<>();
    for (int i = 0; i < monoid.size(); i++) {
      String r = names.fresh(syntax.identifier("combined_" + monoid.components().get(i)));
      method.add(CodeBlock.builder().addStatement("$L $N = $L", syntax.constType(monoid.combined().get(i).type()), r,
          values.get(i)).build());
      results.add(r);
    }
    code.add(method.closeScope());
    for (int i = 0; i < monoid.size(); i++) {
      code.addStatement("$L = $N", into.get(i), results.get(i));
    }
    return code.build();
  }

  /** {@code access} where {@code 0 <= index < length}, else {@code flag[0] = 1} (device code cannot throw). */
  private static CodeBlock inBounds(CodeBlock index, String length, String flag, CodeBlock access) {
    return CodeBlock.builder()
        .beginControlFlow("if (0 <= ($L) && ($L) < $N)", index, index, length)
        .add(access)
        .nextControlFlow("else")
        .addStatement("$N[0] = 1", flag)
        .endControlFlow()
        .build();
  }

  private void loop(Stmt.Loop l) {
    if (lowering != null && lowering.lower(l, this)) {
      return;
    }
    CodeBlock lo = expr(l.lo());
    CodeBlock hi = l.hi().operands().isEmpty() ? expr(l.hi()) : CodeBlock.of("$N", materialize(l.hi(), depth()));
    boolean guarded = !(l.guard() instanceof Expr.Const g && g.isTrue());
    CodeBlock guard = guarded ? expr(l.guard()) : null;
    int outer = depth();
    List<String> carriedNames = new ArrayList<>();
    // any-order sums in sixteen partials (PartialSums): the array, and the loop's first index
    List<PartialSums.Sum> sums = new ArrayList<>();
    List<String> parts = new ArrayList<>();
    String first = null;
    for (Stmt.Carried c : l.carried()) {
      CodeBlock init = expr(c.init());
      String name = names.fresh(c.phi().name());
      current().code.addStatement("$L $N = $L", syntax.type(c.phi().type()), name, init);
      carriedNames.add(name);
      PartialSums.Sum sum = syntax.partialSums() ? PartialSums.of(l, c) : null;
      sums.add(sum);
      parts.add(sum == null ? null : names.fresh(name + "Parts"));
      if (sum != null) {
        current().code.addStatement("final float[] $N = new float[$L]", parts.get(parts.size() - 1), PartialSums.PARTS);
        if (first == null) {
          first = names.fresh("first");
          current().code.addStatement("final int $N = $L", first, lo);
        }
      }
    }
    String index = names.fresh(l.index().name());
    openScope();
    int bodyDepth = depth();
    loopDepth.put(l.id(), bodyDepth);
    bind(l.index(), index, bodyDepth);
    for (int i = 0; i < l.carried().size(); i++) {
      bind(l.carried().get(i).phi(), carriedNames.get(i), bodyDepth);
    }
    statements(l.body());
    // All next values are computed before any is assigned (the carried values update at once).
    List<CodeBlock> nexts = new ArrayList<>();
    for (int i = 0; i < l.carried().size(); i++) {
      Stmt.Carried c = l.carried().get(i);
      if (sums.get(i) != null) {
        // (nothing else in the loop reads the sum: its partial may take the term before the others update)
        current().code.add(sums.get(i).addTerm(parts.get(i), index, first, expr(sums.get(i).term())));
        nexts.add(null);
      } else if (c.next() == c.phi()) {
        nexts.add(null);
      } else if (l.carried().size() == 1) {
        nexts.add(expr(c.next()));
      } else {
        String next = names.fresh(carriedNames.get(i) + "Next");
        current().code.addStatement("$L $N = $L", syntax.constType(c.phi().type()), next, expr(c.next()));
        nexts.add(CodeBlock.of("$N", next));
      }
    }
    for (int i = 0; i < nexts.size(); i++) {
      if (nexts.get(i) != null) {
        current().code.addStatement("$N = $L", carriedNames.get(i), nexts.get(i));
      }
    }
    CodeBlock body = closeScope();
    String step = l.step() == 1 ? index + "++" : index + " += " + l.step();
    CodeBlock loop = CodeBlock.of("for ($L $N = $L; $N < $L; $L) {\n$>$L$<}\n",
        syntax.type(l.index().type()), index, lo, index, hi, step, body);
    // a sum in partials takes its total after the loop, under the loop's guard (as the SIMD loops do)
    CodeBlock.Builder run = CodeBlock.builder().add(loop);
    for (int i = 0; i < l.carried().size(); i++) {
      if (sums.get(i) != null) {
        run.add(sums.get(i).addTotal(carriedNames.get(i), parts.get(i)));
      }
    }
    if (guarded) {
      current().code.beginControlFlow("if ($L)", guard).add(run.build()).endControlFlow();
    } else {
      current().code.add(run.build());
    }
    for (int i = 0; i < l.carried().size(); i++) {
      bind(l.carried().get(i).result(), carriedNames.get(i), outer);
    }
  }

  /**
   * Binds {@code e} in the current scope to a new local whose value is {@code value} applied to the
   * code that computes {@code e} (for a load, its read of the array): later uses of {@code e} in
   * this scope read the local. Returns the local's name.
   */
  public String define(Expr e, java.util.function.UnaryOperator<CodeBlock> value) {
    CodeBlock code = value.apply(inline(e));
    String name = names.fresh(sourceNames.getOrDefault(e, "t"));
    Scope s = scopes.get(scopes.size() - 1);
    s.code.addStatement("$L $N = $L", syntax.constType(e.type()), name, code);
    s.temps.put(e, name);
    return name;
  }

  // ---- expressions ----

  /** Java source for {@code e}, valid in the current scope. */
  public CodeBlock expr(Expr e) {
    if (e instanceof Expr.Const c) {
      return syntax.literal(c);
    }
    if (e instanceof Expr.ScalarRef s) {
      return CodeBlock.of("$N", syntax.identifier(s.param().name()));
    }
    if (e instanceof Expr.Var v) {
      String name = varNames.get(v);
      if (name == null) {
        throw new IllegalStateException("unbound variable " + v.name());
      }
      return CodeBlock.of("$N", name);
    }
    String temp = lookup(e);
    if (temp != null) {
      return CodeBlock.of("$N", temp);
    }
    if (e instanceof Expr.Binary b && b.scope() >= 0) {
      // integer division traps: keep it inline, inside whatever guards it (never a temp computed early)
      return inline(e);
    }
    int d = depthOf(e);
    if (uses.getOrDefault(e, 1) > 1 || d < depth() || sourceNames.containsKey(e)) {
      return CodeBlock.of("$N", materialize(e, d));
    }
    return inline(e);
  }

  /** {@link #expr} of an array index. */
  private CodeBlock index(Expr e) {
    return asIndex(() -> expr(e));
  }

  private String materializeIndex(Expr e, int depth) {
    return asIndex(() -> materialize(e, depth));
  }

  /** {@code code}'s result, written with {@link #inIndex} set. */
  private <T> T asIndex(java.util.function.Supplier<T> code) {
    boolean outer = inIndex;
    inIndex = true;
    try {
      return code.get();
    } finally {
      inIndex = outer;
    }
  }

  private String lookup(Expr e) {
    for (int i = scopes.size() - 1; i >= 0; i--) {
      String t = scopes.get(i).temps.get(e);
      if (t != null) {
        return t;
      }
    }
    return null;
  }

  /** Computes {@code e} into a final local in the scope at {@code depth}; returns its name. */
  private String materialize(Expr e, int depth) {
    String existing = lookup(e);
    if (existing != null) {
      return existing;
    }
    List<Scope> saved = new ArrayList<>(scopes.subList(depth + 1, scopes.size()));
    scopes.subList(depth + 1, scopes.size()).clear();
    CodeBlock code;
    try {
      code = inline(e);
    } finally {
      scopes.addAll(saved);
    }
    String base = sourceNames.getOrDefault(e, "t");
    String name = names.fresh(base);
    Scope s = scopes.get(depth);
    s.code.addStatement("$L $N = $L", syntax.constType(e.type()), name, code);
    s.temps.put(e, name);
    return name;
  }

  private CodeBlock inline(Expr e) {
    if (e instanceof Expr.Load l && laneLoads.containsKey(l)) {
      return laneLoads.get(l);
    }
    if (e instanceof Expr.Load l) {
      CodeBlock index = index(l.index());
      CodeBlock read = CodeBlock.of("$N[$L]", syntax.identifier(l.array().name()), index);
      if (checkedLoads.contains(l)) {
        String length = loadLengths.get(l.array());
        read = CodeBlock.of("((0 <= ($L) && ($L) < $N) ? $L : ($N[0] = 1, $L))", index, index, length, read, loadFlag,
            syntax.zero(l.type()));
      }
      if (l.guard() instanceof Expr.Const c && c.isTrue()) {
        return read;
      }
      return CodeBlock.of("($L ? $L : $L)", expr(l.guard()), read, syntax.zero(l.type()));
    }
    if (e instanceof Expr.Unary u) {
      return syntax.unary(u.op(), u.type(), expr(u.operand()));
    }
    if (e instanceof Expr.Binary b) {
      return syntax.binary(b.op(), b.left().type(), expr(b.left()), expr(b.right()), inIndex);
    }
    if (e instanceof Expr.Select s) {
      return CodeBlock.of("($L ? $L : $L)", expr(s.cond()), expr(s.ifTrue()), expr(s.ifFalse()));
    }
    if (e instanceof Expr.Cast c) {
      return syntax.cast(c.type(), c.operand().type(), expr(c.operand()));
    }
    Expr.Call call = (Expr.Call) e;
    List<CodeBlock> args = new ArrayList<>();
    for (Expr a : call.args()) {
      args.add(expr(a));
    }
    return syntax.call(call, args);
  }

  private int depthOf(Expr e) {
    Integer memo = depthMemo.get(e);
    if (memo != null) {
      return memo;
    }
    int d;
    if (e instanceof Expr.Var v) {
      Integer vd = varDepth.get(v);
      if (vd == null) {
        throw new IllegalStateException("unbound variable " + v.name());
      }
      return vd; // not memoised: a loop result is rebound as loops close
    }
    d = 0;
    for (Expr o : e.operands()) {
      d = Math.max(d, depthOf(o));
    }
    if (e instanceof Expr.Load l) {
      d = Math.max(d, anchor(l.scope()));
    } else if (e instanceof Expr.Binary b && b.scope() >= 0) {
      d = Math.max(d, anchor(b.scope()));
    }
    depthMemo.put(e, d);
    return d;
  }

  private int anchor(int scope) {
    return scope == 0 ? workerDepth : loopDepth.get(scope);
  }
}
