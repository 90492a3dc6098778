package dev.kiln.processor.autodiff;

import dev.kiln.processor.ir.ArrayRole;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.GridDim;
import dev.kiln.processor.ir.MathFn;
import dev.kiln.processor.ir.Monoid;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.PolyExpr;
import dev.kiln.processor.ir.ReduceKind;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Shape;
import dev.kiln.processor.ir.SourceRef;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.StmtWalk;
import dev.kiln.processor.ir.analysis.Affine;
import dev.kiln.processor.ir.analysis.AffineAnalysis;
import dev.kiln.processor.ir.analysis.IndexTerms;
import dev.kiln.processor.ir.analysis.Injectivity;
import dev.kiln.processor.ir.analysis.LaneNest;
import dev.kiln.processor.ir.analysis.Term;
import dev.kiln.processor.ir.transform.ExprMapper;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * Reverse mode over one grid worker: the body of the <em>adjoint kernel</em>, which runs on the
 * forward grid, recomputes the forward values it needs, and stores, for every read of an array the
 * gradient is taken with respect to, the adjoint of that read (see {@link Occurrence}).
 *
 * <p>Within a level (the worker's top level or one sequential loop) nodes are visited in reverse
 * creation order, which is a reverse topological order of the DAG. A sequential loop is visited
 * when every user of its results has been: its carried values must be sums ({@code acc += t},
 * {@code acc -= t}) or running maxima/minima ({@code m = max(m, t)}), so the adjoint of {@code t} in
 * every iteration is known from the adjoint of the loop's result (a sum passes it unchanged; a
 * maximum passes it to the iterations that attain it). A <em>reverse loop</em> over the same range
 * then stores the adjoints of the reads inside it and sums, as carried values, what flows out of it
 * to values computed outside.
 */
final class ReverseSweep {
  private final ExprFactory f;
  private final Derivatives rules;
  private final OperatorIr.Grid op;
  private final Levels levels;
  private final Map<Param.Array, Param.Array> upstream;
  private final Map<Param.Array, Param.Array> outputsIn;
  private final Map<String, Param.Scalar> sizes = new HashMap<>();
  /** The names of the operator's {@code @Dim}s, which index proofs take to be at least 1. */
  private final Set<String> dims = new HashSet<>();
  private final Map<OccKey, Expr> adjoints = new LinkedHashMap<>();
  private final Map<OccKey, SourceRef> origins = new HashMap<>();
  private final Set<OccKey> guarded = new HashSet<>();
  /** Per occurrence, the conditions of its reads; null once an unguarded read joins it. */
  private final Map<OccKey, List<Expr>> guardsOf = new HashMap<>();
  private final List<Flat> flats = new ArrayList<>();
  private final List<Occurrence> occurrences = new ArrayList<>();
  /** Accumulators summed by a nested loop that starts from them (see {@link #nestedSum}). */
  private final Set<Expr.Var> passThrough = new HashSet<>();
  /** Per forward loop, flags its reverse loop carries (forward terms; see running extrema in {@link #carried}). */
  private final Map<Stmt.Loop, List<Stmt.Carried>> flags = new java.util.IdentityHashMap<>();
  /** Carried values of inner loops that continue a running extremum of an enclosing loop. */
  private final Map<Stmt.Carried, NestedExtremum> nestedExtrema = new java.util.IdentityHashMap<>();
  private int nextLoopId;
  /** Values the differentiated outputs do not depend on ({@link ShiftInvariance}): they take no adjoint. */
  private final Set<Expr.Var> unused;

  private record OccKey(Param.Array array, Expr index, Stmt.Loop level) {}

  ReverseSweep(ExprFactory f, OperatorIr.Grid op, Set<Param.Array> wrt, Map<Param.Array, Param.Array> upstream,
      Map<Param.Array, Param.Array> outputsIn) {
    this.f = f;
    this.rules = new Derivatives(f);
    this.op = op;
    this.levels = new Levels(op.body(), wrt);
    this.upstream = upstream;
    this.outputsIn = outputsIn;
    op.scalars().forEach(s -> sizes.put(s.name(), s));
    op.dims().forEach(d -> dims.add(d.name()));
    nextLoopId = StmtWalk.maxLoopId(op.body()) + 1;
    unused = ShiftInvariance.of(op.body(), upstream.keySet());
  }

  /** The adjoint kernel's body; {@link #occurrences()} then lists what it stores. */
  List<Stmt> run() throws NotDifferentiable {
    checkSingleWrites(op.body(), List.of(), new HashMap<>(), new HashMap<>());
    Context top = new Context(null, null, null);
    return sweep(top, op.body(), Map.of(), new LinkedHashMap<>());
  }

  List<Occurrence> occurrences() {
    return occurrences;
  }

  // ---- one level ----

  /** What the reverse pass knows while it builds the code of one level. */
  private final class Context {
    final Context parent;
    final Stmt.Loop forward;
    final Expr.Var reverseIndex;
    final int reverseId;
    final Map<Expr.Var, Expr> vars = new HashMap<>();
    final Map<Integer, Integer> open = new HashMap<>();
    final Map<Integer, Integer> copies = new HashMap<>();
    ExprMapper levelMapper;
    ExprMapper copyMapper;

    Context(Context parent, Stmt.Loop forward, Expr.Var reverseIndex) {
      this.parent = parent;
      this.forward = forward;
      this.reverseIndex = reverseIndex;
      this.reverseId = forward == null ? 0 : nextLoopId++;
      if (parent != null) {
        vars.putAll(parent.vars);
        open.putAll(parent.open);
        vars.put(forward.index(), reverseIndex);
        open.put(forward.id(), reverseId);
      }
    }

    void seal() {
      levelMapper = new ExprMapper(f, vars, f::scalar, a -> a, id -> open.getOrDefault(id, reverseId), null, null);
      copyMapper = new ExprMapper(f, vars, f::scalar, a -> a,
          id -> copies.getOrDefault(id, open.getOrDefault(id, reverseId)), null, null);
    }

    Expr map(Expr e) {
      return levelMapper.map(e);
    }
  }

  private List<Stmt> sweep(Context ctx, List<Stmt> stmts, Map<Expr, Expr> seeds, Map<Expr, Expr> escapes)
      throws NotDifferentiable {
    List<Stmt> valueLoops = valueLoops(stmts);
    prepareCopies(ctx, valueLoops);
    ctx.seal();
    List<Stmt> out = new ArrayList<>(ctx.copyMapper.map(valueLoops));

    Map<Expr, Expr> adj = new HashMap<>();
    Set<Expr> done = new HashSet<>();
    PriorityQueue<Item> queue = new PriorityQueue<>(Comparator.comparingLong(Item::key).reversed());
    Level level = new Level(ctx, adj, escapes, queue, done);
    for (Map.Entry<Expr, Expr> s : seeds.entrySet()) {
      level.contribute(s.getKey(), s.getValue());
    }
    seedStores(level, stmts);
    long first = Long.MAX_VALUE;
    for (Stmt s : stmts) {
      if (s instanceof Stmt.Loop l) {
        long key = l.carried().isEmpty() ? first-- : 2L * minResultId(l) - 1;
        queue.add(new Item(key, null, l));
      }
    }
    while (!queue.isEmpty()) {
      Item item = queue.poll();
      if (item.loop() != null) {
        Stmt.Loop reverse = reverseLoop(level, item.loop());
        if (!reverse.body().isEmpty() || !reverse.carried().isEmpty()) {
          out.add(reverse);
        }
      } else {
        node(level, item.node());
      }
    }
    out.addAll(storeOccurrences(ctx));
    return out;
  }

  private record Item(long key, Expr node, Stmt.Loop loop) {}

  /** The adjoints of one level being built. */
  private final class Level {
    final Context ctx;
    final Map<Expr, Expr> adj;
    final Map<Expr, Expr> escapes;
    final PriorityQueue<Item> queue;
    final Set<Expr> done;

    Level(Context ctx, Map<Expr, Expr> adj, Map<Expr, Expr> escapes, PriorityQueue<Item> queue, Set<Expr> done) {
      this.ctx = ctx;
      this.adj = adj;
      this.escapes = escapes;
      this.queue = queue;
      this.done = done;
    }

    void contribute(Expr node, Expr a) {
      if (!levels.active(node) || passThrough.contains(node)) {
        return; // a pass-through accumulator's adjoint is its loop's, handled there
      }
      if (unused.contains(node)) {
        return; // the outputs are the same for every value of it: its adjoint is zero
      }
      Expr typed = f.cast(node.type(), a);
      if (levels.level(node) != ctx.forward) {
        escapes.merge(node, typed, ReverseSweep.this::add);
        return;
      }
      if (done.contains(node)) {
        throw new IllegalStateException("adjoint of a node reached after it was propagated: " + node.id());
      }
      Expr before = adj.merge(node, typed, ReverseSweep.this::add);
      if (before == typed) {
        queue.add(new Item(2L * node.id(), node, null));
      }
    }
  }

  private Expr add(Expr a, Expr b) {
    return f.binary(BinaryOp.ADD, a, b, -1);
  }

  private void node(Level level, Expr n) throws NotDifferentiable {
    level.done.add(n);
    Expr a = level.adj.get(n);
    if (n instanceof Expr.Load l) {
      OccKey key = new OccKey(l.array(), l.index(), level.ctx.forward);
      Expr masked = f.select(l.guard(), a, f.constant(a.type(), 0));
      adjoints.merge(key, masked, this::add);
      if (!(l.guard() instanceof Expr.Const c && c.isTrue())) {
        guarded.add(key);
        if (!guardsOf.containsKey(key) || guardsOf.get(key) != null) {
          guardsOf.computeIfAbsent(key, k -> new ArrayList<>()).add(l.guard());
        }
      } else {
        guardsOf.put(key, null);
      }
      origins.computeIfAbsent(key, k -> originOf(l, level.ctx.forward == null ? op.body() : level.ctx.forward.body()));
      return;
    }
    if (n instanceof Expr.Var v) {
      if (v.kind() == Expr.VarKind.CARRIED) {
        throw new NotDifferentiable("the loop-carried value '" + v.sourceName() + "' is used inside its loop other than"
            + " to update itself; Kiln differentiates loops whose carried values are sums (acc += ...) or"
            + " running maxima or minima", level.ctx.forward == null ? null : level.ctx.forward.origin());
      }
      return; // a loop result: its loop takes the adjoint
    }
    for (Derivatives.Share s : rules.of(n, a)) {
      level.contribute(s.operand(), s.adjoint());
    }
  }

  // ---- seeds: what the worker writes ----

  private void seedStores(Level level, List<Stmt> stmts) throws NotDifferentiable {
    for (int i = 0; i < stmts.size(); i++) {
      Stmt s = stmts.get(i);
      if (s instanceof Stmt.Store st && upstream.containsKey(st.array())) {
        Expr guard = st.guard();
        for (int j = i + 1; j < stmts.size(); j++) {
          if (stmts.get(j) instanceof Stmt.Store later && later.array() == st.array() && later.index() == st.index()) {
            guard = f.binary(BinaryOp.LAND, guard, f.unary(dev.kiln.processor.ir.UnaryOp.NOT, later.guard()), -1);
          }
        }
        Expr dy = f.load(upstream.get(st.array()), st.index(), guard, scopeOf(level.ctx));
        level.contribute(st.value(), dy);
      } else if (s instanceof Stmt.Accumulate ac && upstream.containsKey(ac.array())) {
        Expr dy = f.load(upstream.get(ac.array()), ac.index(), ac.guard(), scopeOf(level.ctx));
        if (ac.op() == ReduceKind.SUM) {
          level.contribute(ac.value(), dy);
        } else if (ac.op() == ReduceKind.MAX || ac.op() == ReduceKind.MIN) {
          // split evenly among the terms attaining the result (see TieCounts)
          Expr y = f.load(outputsIn.get(ac.array()), ac.index(), ac.guard(), scopeOf(level.ctx));
          Expr attains = f.binary(BinaryOp.EQ, f.cast(y.type(), ac.value()), y, -1);
          Expr ties = f.load(TieCounts.counts(ac.array(), ArrayRole.IN), ac.index(), ac.guard(), scopeOf(level.ctx));
          Expr share = f.binary(BinaryOp.DIV, dy, f.cast(dy.type(), ties), -1);
          level.contribute(ac.value(), f.select(attains, share, f.constant(dy.type(), 0)));
        } else {
          throw new NotDifferentiable("'" + ac.array().name() + "' is a @Reduce product; Kiln derives gradients of"
              + " sums, maxima and minima", ac.origin());
        }
      } else if (s instanceof Stmt.Combine cb && cb.arrays().stream().anyMatch(upstream::containsKey)) {
        seedCombine(level, cb);
      }
    }
  }

  /**
   * An update {@code r[i] = r[i].combine(e)} of a user monoid: the record's {@code @ElementGradient}
   * method, given the total (the forward's output, read back), its upstream gradient (0 for
   * components that have none) and {@code e}, gives the adjoint of each of {@code e}'s floating-point
   * components. Nothing flows where the update's guard fails, and nothing is needed (no method
   * either) when no component of {@code e} depends on an input the gradient is taken with respect to.
   */
  private void seedCombine(Level level, Stmt.Combine cb) throws NotDifferentiable {
    if (cb.values().stream().noneMatch(v -> v.type().isFloating() && levels.active(v))) {
      return; // no element's value depends on what the gradient is taken with respect to
    }
    Monoid.Gradient g = cb.monoid().gradient();
    if (g == null) {
      throw new NotDifferentiable("it reduces into '" + cb.param() + "' with " + cb.monoid() + ", and "
          + cb.monoid().record() + " declares no @ElementGradient method (the gradient of a total with respect to one"
          + " element), so Kiln cannot differentiate through it", cb.origin());
    }
    int scope = scopeOf(level.ctx);
    Map<Expr.Var, Expr> operands = new HashMap<>();
    for (int c = 0; c < cb.arrays().size(); c++) {
      Param.Array component = cb.arrays().get(c);
      ScalarType type = component.elementType();
      operands.put(g.total().get(c), f.load(outputsIn.get(component), cb.index(), cb.guard(), scope));
      Param.Array d = upstream.get(component);
      operands.put(g.totalGradient().get(c), d != null ? f.load(d, cb.index(), cb.guard(), scope)
          : type.isFloating() ? f.constant(type, 0) : f.integral(type, 0));
      operands.put(g.element().get(c), cb.values().get(c));
    }
    ExprMapper inline = new ExprMapper(f, operands, f::scalar, a -> a, id -> id, null, null);
    boolean always = cb.guard() instanceof Expr.Const k && k.isTrue();
    for (int c = 0; c < cb.values().size(); c++) {
      Expr value = cb.values().get(c);
      if (!value.type().isFloating()) {
        continue;
      }
      Expr adjoint = inline.map(g.result().get(c));
      level.contribute(value, always ? adjoint : f.select(cb.guard(), adjoint, f.constant(value.type(), 0)));
    }
  }

  /**
   * Refuses outputs that a worker may overwrite with data-dependent effect: a store in a loop at an
   * index that does not move with every loop around it (each iteration overwrites the last, so
   * which value survives depends on the data), or stores of one array both inside and outside
   * loops, or in two loops. Stores at one level to the same index are handled: the later one's
   * guard wins.
   */
  private void checkSingleWrites(List<Stmt> stmts, List<Stmt.Loop> around, Map<Param.Array, Integer> depthOf,
      Map<Param.Array, Stmt.Loop> loopOf) throws NotDifferentiable {
    checkStoresApart(stmts, around);
    for (Stmt s : stmts) {
      if (s instanceof Stmt.Loop l) {
        List<Stmt.Loop> inner = new ArrayList<>(around);
        inner.add(l);
        checkSingleWrites(l.body(), inner, depthOf, loopOf);
      } else if (s instanceof Stmt.Store st && upstream.containsKey(st.array())) {
        Integer before = depthOf.putIfAbsent(st.array(), around.size());
        if (before != null && before != around.size()) {
          throw overwritten(st);
        }
        for (Stmt.Loop l : around) {
          if (!Levels.dependsOn(st.index(), Set.of(l.index()), new HashMap<>())) {
            throw overwritten(st);
          }
        }
        if (!around.isEmpty()) {
          // stores of one array in two loops (one after the other): the later may overwrite what
          // the earlier wrote, and Kiln does not prove which elements each loop writes
          Stmt.Loop first = loopOf.putIfAbsent(st.array(), around.get(around.size() - 1));
          if (first != null && first != around.get(around.size() - 1)) {
            throw overwritten(st);
          }
          onceEachIteration(st, around);
        }
      }
    }
  }

  /**
   * Refuses two stores into one array at different indices in {@code stmts} (the body of the
   * innermost of {@code around}, or the worker's own statements) unless no element is written by
   * both in any iterations of the loops around them: their indices must differ by a constant
   * {@code d} (no loop variable), and the index of the first, with a made-up variable {@code s} in
   * [0, 2) adding {@code s * d}, must be provably injective over the loops and {@code s} ({@code
   * y[2k]} and {@code y[2k + 1]} keep apart; {@code y[jH + k]} and {@code y[jH + H + k]} under a
   * loop over j do not: j + 1's first store overwrites j's second, whose value then reaches nothing).
   */
  private void checkStoresApart(List<Stmt> stmts, List<Stmt.Loop> around) throws NotDifferentiable {
    Map<Param.Array, List<Stmt.Store>> byArray = new java.util.LinkedHashMap<>();
    for (Stmt s : stmts) {
      if (s instanceof Stmt.Store st && upstream.containsKey(st.array())) {
        List<Stmt.Store> stores = byArray.computeIfAbsent(st.array(), a -> new ArrayList<>());
        if (stores.stream().noneMatch(other -> other.index().equals(st.index()))) {
          stores.add(st);
        }
      }
    }
    Map<String, Poly[]> ranges = null;
    for (List<Stmt.Store> stores : byArray.values()) {
      for (int j = 1; j < stores.size(); j++) {
        if (ranges == null) {
          ranges = loopRanges(stores.get(j), around);
        }
        for (int i = 0; i < j; i++) {
          if (!apart(stores.get(i), stores.get(j), around, ranges)) {
            throw storesMeet(stores.get(i));
          }
        }
      }
    }
  }

  /** The made-up variable for which of two stores: not a Java identifier, so no loop variable has its name. */
  private static final String STORE_CHOICE = "#store";

  private boolean apart(Stmt.Store first, Stmt.Store second, List<Stmt.Loop> around, Map<String, Poly[]> ranges) {
    Affine a = AffineAnalysis.affine(first.index());
    Affine b = AffineAnalysis.affine(second.index());
    if (a == null || b == null) {
      return false;
    }
    Affine diff = b.subtract(a);
    if (!diff.isConstant() || IndexTerms.magnitude(diff.constantPart(), dims) == null) {
      return false;
    }
    Set<String> vars = loopNames(around);
    vars.add(STORE_CHOICE);
    Map<String, Poly[]> withChoice = new HashMap<>(ranges);
    withChoice.put(STORE_CHOICE, new Poly[] {Poly.ZERO, Poly.constant(2)});
    return injective(a.add(Affine.variable(STORE_CHOICE).scale(diff.constantPart())), withChoice, vars);
  }

  /**
   * Refuses {@code st} unless its index, within one worker, differs between every two iterations
   * of the loops around it: the part of the index in those loops' variables is provably injective over
   * their ranges ({@code y[b * 2N + i + k]} for i in [0, 2) and k in [0, N) is not: i = 1, k and
   * i = 0, k + 1 meet).
   */
  private void onceEachIteration(Stmt.Store st, List<Stmt.Loop> around) throws NotDifferentiable {
    Affine index = AffineAnalysis.affine(st.index());
    if (index == null) {
      throw overwritten(st);
    }
    if (!injective(index, loopRanges(st, around), loopNames(around))) {
      throw overwritten(st);
    }
  }

  /**
   * Whether the part of {@code index} in {@code vars} (the loops' variables within one worker, and
   * any made-up one) takes a different value at every point of their {@code ranges}, provably.
   */
  private boolean injective(Affine index, Map<String, Poly[]> ranges, Set<String> vars) {
    List<Term> terms = IndexTerms.of(localPart(index, vars), ranges, vars, dims);
    return terms != null && Injectivity.provable(terms, dims);
  }

  /** The ranges of the loops around a store; refuses a loop whose bounds depend on the worker. */
  private static Map<String, Poly[]> loopRanges(Stmt.Store st, List<Stmt.Loop> around) throws NotDifferentiable {
    Map<String, Poly[]> ranges = new HashMap<>();
    for (Stmt.Loop l : around) {
      IndexTerms.addLoopRange(l, ranges);
      if (!ranges.containsKey(l.index().name())) {
        throw new NotDifferentiable("'" + st.array().name() + "' is written in a loop whose bounds depend on the"
            + " worker; Kiln differentiates writes in loops whose bounds are sizes or constants", l.origin());
      }
    }
    return ranges;
  }

  private static Set<String> loopNames(List<Stmt.Loop> around) {
    Set<String> names = new java.util.HashSet<>();
    around.forEach(l -> names.add(l.index().name()));
    return names;
  }

  /** The part of {@code index} in {@code vars}: what changes from one iteration to another within a worker. */
  private static Affine localPart(Affine index, Set<String> vars) {
    Affine local = Affine.constant(Poly.ZERO);
    for (Map.Entry<String, Poly> c : index.coefficients().entrySet()) {
      if (vars.contains(c.getKey())) {
        local = local.add(Affine.variable(c.getKey()).scale(c.getValue()));
      }
    }
    return local;
  }

  private static NotDifferentiable storesMeet(Stmt.Store st) {
    return new NotDifferentiable("a worker may write an element of '" + st.array().name() + "' more than once: this"
        + " store and a later one into '" + st.array().name() + "' may write one element (in different iterations"
        + " of the loops around them, or for some sizes), and the later overwrites the earlier; Kiln differentiates"
        + " operators whose workers write each output element once", st.origin());
  }

  private static NotDifferentiable overwritten(Stmt.Store st) {
    return new NotDifferentiable("a worker may write an element of '" + st.array().name() + "' more than once"
        + " (in a loop, or both inside and outside one), so which value it keeps depends on the data; Kiln"
        + " differentiates operators whose workers write each output element once per loop iteration", st.origin());
  }

  /** The source of the first statement of {@code stmts} that reads {@code load} (the statement itself, or its loop). */
  private static SourceRef originOf(Expr.Load load, List<Stmt> stmts) {
    Map<Expr, Boolean> memo = new HashMap<>();
    for (Stmt s : stmts) {
      boolean reads;
      if (s instanceof Stmt.Store st) {
        reads = contains(st.value(), load, memo) || contains(st.guard(), load, memo);
      } else if (s instanceof Stmt.Accumulate a) {
        reads = contains(a.value(), load, memo) || contains(a.guard(), load, memo);
      } else if (s instanceof Stmt.Combine c) {
        reads = contains(c.index(), load, memo) || contains(c.guard(), load, memo)
            || c.values().stream().anyMatch(v -> contains(v, load, memo));
      } else {
        Stmt.Loop l = (Stmt.Loop) s;
        reads = l.carried().stream().anyMatch(c -> contains(c.next(), load, memo) || contains(c.init(), load, memo))
            || originOf(load, l.body()) != null;
      }
      if (reads) {
        return s.origin();
      }
    }
    return null;
  }

  private static boolean contains(Expr e, Expr target, Map<Expr, Boolean> memo) {
    return Levels.reaches(e, n -> n == target, memo);
  }


  private static int scopeOf(Context ctx) {
    return ctx.forward == null ? 0 : ctx.forward.id();
  }

  // ---- sequential loops ----

  private Stmt.Loop reverseLoop(Level outer, Stmt.Loop loop) throws NotDifferentiable {
    Map<Expr, Expr> innerSeeds = new LinkedHashMap<>();
    Set<Expr.Var> phis = new HashSet<>(); // (a boolean or integer one is recomputed below: terms may use it)
    loop.carried().stream().filter(c -> c.phi().type().isFloating()).forEach(c -> phis.add(c.phi()));
    for (Stmt.Carried c : loop.carried()) {
      Expr aR = outer.adj.get(c.result());
      outer.done.add(c.result());
      if (aR == null && !nestedExtrema.containsKey(c)) {
        continue; // (a continued extremum takes its adjoint from the enclosing loop's result)
      }
      carried(outer, loop, c, aR, phis, innerSeeds);
    }
    Expr.Var index = f.newVar(loop.index().name(), loop.index().type(), Expr.VarKind.LOOP_INDEX);
    Context ctx = new Context(outer.ctx, loop, index);
    // a carried boolean or integer ("seen so far", a count) is no sum and takes no adjoint, but the
    // body may use it: the reverse loop, which runs in the same order, carries its own copy
    List<Stmt.Carried> recomputed = new ArrayList<>();
    for (Stmt.Carried c : loop.carried()) {
      if (!c.phi().type().isFloating()) {
        Expr.Var phi = f.newVar(c.phi().sourceName(), c.phi().type(), Expr.VarKind.CARRIED);
        Expr.Var result = f.newVar(c.result().name(), c.result().type(), Expr.VarKind.LOOP_RESULT);
        levels.register(phi, loop);
        levels.register(result, levels.parentOf(loop));
        ctx.vars.put(c.phi(), phi);
        recomputed.add(new Stmt.Carried(phi, c.init(), c.next(), result));
      }
    }
    Map<Expr, Expr> escapes = new LinkedHashMap<>();
    List<Stmt> body = sweep(ctx, loop.body(), innerSeeds, escapes);
    List<Stmt.Carried> carried = new ArrayList<>();
    for (Stmt.Carried flag : flags.getOrDefault(loop, List.of())) {
      carried.add(new Stmt.Carried(flag.phi(), outer.ctx.map(flag.init()), ctx.map(flag.next()), flag.result()));
    }
    for (Stmt.Carried c : recomputed) {
      carried.add(new Stmt.Carried(c.phi(), outer.ctx.map(c.init()), ctx.map(c.next()), c.result()));
    }
    List<Stmt.Carried> sums = new ArrayList<>();
    for (Map.Entry<Expr, Expr> e : escapes.entrySet()) {
      ScalarType t = e.getKey().type();
      Expr.Var phi = f.newVar("adj", t, Expr.VarKind.CARRIED);
      Expr.Var result = f.newVar("adj", t, Expr.VarKind.LOOP_RESULT);
      levels.register(phi, loop);
      levels.register(result, levels.parentOf(loop));
      sums.add(new Stmt.Carried(phi, f.constant(t, 0), add(phi, ctx.map(e.getValue())), result, true));
    }
    carried.addAll(sums);
    Stmt.Loop reverse = new Stmt.Loop(ctx.reverseId, index, outer.ctx.map(loop.lo()), outer.ctx.map(loop.hi()),
        loop.step(), outer.ctx.map(loop.guard()), carried, body, loop.origin());
    int k = 0;
    for (Map.Entry<Expr, Expr> e : escapes.entrySet()) {
      outer.contribute(e.getKey(), sums.get(k++).result());
    }
    return reverse;
  }

  private void carried(Level outer, Stmt.Loop loop, Stmt.Carried c, Expr aR, Set<Expr.Var> phis,
      Map<Expr, Expr> innerSeeds) throws NotDifferentiable {
    Expr next = c.next();
    Expr.Var phi = c.phi();
    if (next == phi) {
      return;
    }
    NestedExtremum pending = nestedExtrema.remove(c);
    if (pending != null) {
      nestedExtremum(loop, c, pending, innerSeeds);
      return;
    }
    Expr term = null;
    boolean negate = false;
    boolean extremum = false;
    if (next instanceof Expr.Cast narrowed && phi.type().isFloating()
        && narrowed.operand() instanceof Expr.Binary wide && (wide.op() == BinaryOp.ADD || wide.op() == BinaryOp.SUB)) {
      // float acc += double term: acc = (float) ((double) acc + term); rounding's derivative taken as 1, as for
      // every cast
      if (widened(wide.left(), phi)) {
        term = wide.right();
        negate = wide.op() == BinaryOp.SUB;
      } else if (widened(wide.right(), phi) && wide.op() == BinaryOp.ADD) {
        term = wide.left();
      }
      if (term != null && !Levels.dependsOn(term, phis, new HashMap<>())) {
        Expr a = f.cast(term.type(), aR);
        innerSeeds.merge(term, negate ? f.unary(dev.kiln.processor.ir.UnaryOp.NEG, a) : a, this::add);
        outer.contribute(c.init(), aR);
        return;
      }
      term = null;
      negate = false;
    }
    if (next instanceof Expr.Binary b && (b.op() == BinaryOp.ADD || b.op() == BinaryOp.SUB)) {
      if (b.left() == phi) {
        term = b.right();
        negate = b.op() == BinaryOp.SUB;
      } else if (b.right() == phi && b.op() == BinaryOp.ADD) {
        term = b.left();
      }
    } else if (next instanceof Expr.Call call && (call.fn() == MathFn.MAX || call.fn() == MathFn.MIN)) {
      extremum = true;
      term = call.args().get(0) == phi ? call.args().get(1) : call.args().get(1) == phi ? call.args().get(0) : null;
    } else if (next instanceof Expr.Select sel && extremumTerm(sel, phi) != null) {
      // if (t > m) m = t, and the other comparisons: a running maximum or minimum
      extremum = true;
      term = extremumTerm(sel, phi);
    } else if (next instanceof Expr.Select) {
      // if (c) acc += t: each term's adjoint flows where its condition held
      List<GuardedTerm> parts = sumParts(next, phi, f.trueValue());
      if (parts != null && parts.stream().noneMatch(p -> Levels.dependsOn(p.term(), phis, new HashMap<>())
          || Levels.dependsOn(p.guard(), phis, new HashMap<>()))) {
        for (GuardedTerm p : parts) {
          Expr a = p.negate() ? f.unary(dev.kiln.processor.ir.UnaryOp.NEG, aR) : aR;
          innerSeeds.merge(p.term(), f.select(p.guard(), a, f.constant(aR.type(), 0)), this::add);
        }
        outer.contribute(c.init(), aR);
        return;
      }
    } else if (next instanceof Expr.Var v && v.kind() == Expr.VarKind.LOOP_RESULT && nestedSum(loop, phi, v)
        && extremumChain(inner(loop, phi, v))) {
      // a running maximum carried through nested loops: the gradient goes to the first attaining term
      // in execution order, found by a flag carried through every level of reverse loops
      Expr r = c.result();
      Expr initAttains = f.binary(BinaryOp.EQ, f.cast(r.type(), c.init()), r, -1);
      Expr.Var seen = f.newVar("seen", ScalarType.BOOL, Expr.VarKind.CARRIED);
      Expr.Var seenAfter = f.newVar("seen", ScalarType.BOOL, Expr.VarKind.LOOP_RESULT);
      levels.register(seen, loop);
      levels.register(seenAfter, levels.parentOf(loop));
      nestedExtremum(loop, c, new NestedExtremum(r, aR, initAttains, seen, seenAfter), innerSeeds);
      outer.contribute(c.init(), f.select(initAttains, aR, f.constant(aR.type(), 0)));
      return;
    } else if (next instanceof Expr.Var v && v.kind() == Expr.VarKind.LOOP_RESULT && nestedSum(loop, phi, v)) {
      // acc is summed by a loop inside this one, which starts from acc: each iteration adds that loop's sum
      passThrough.add(phi);
      innerSeeds.merge(v, aR, this::add);
      outer.contribute(c.init(), aR);
      return;
    }
    if (term == null || Levels.dependsOn(term, phis, new HashMap<>())) {
      throw new NotDifferentiable("the loop-carried value '" + phi.sourceName() + "' is updated in a way Kiln cannot"
          + " differentiate; Kiln differentiates loops whose carried values are sums (acc += ...) or running"
          + " maxima or minima (m = max(m, ...))", loop.origin());
    }
    if (extremum && passThrough.contains(c.init())) {
      throw new NotDifferentiable("the running maximum or minimum '" + phi.sourceName() + "' continues one of an"
          + " enclosing loop; Kiln differentiates running maxima kept within one loop", loop.origin());
    }
    Expr zero = f.constant(aR.type(), 0);
    if (extremum) {
      // the adjoint goes to the first value attaining the extremum (Java's max keeps the earlier on ties):
      // the initial value when it attains it, else the first iteration that does, found by a flag carried
      // through the reverse loop, which runs in the same order
      Expr r = c.result();
      Expr initAttains = f.binary(BinaryOp.EQ, f.cast(r.type(), c.init()), r, -1);
      Expr attains = f.binary(BinaryOp.EQ, f.cast(r.type(), term), r, -1);
      Expr.Var seen = f.newVar("seen", ScalarType.BOOL, Expr.VarKind.CARRIED);
      Expr.Var seenAfter = f.newVar("seen", ScalarType.BOOL, Expr.VarKind.LOOP_RESULT);
      levels.register(seen, loop);
      levels.register(seenAfter, levels.parentOf(loop));
      flags.computeIfAbsent(loop, k -> new ArrayList<>())
          .add(new Stmt.Carried(seen, initAttains, f.binary(BinaryOp.LOR, seen, attains, -1), seenAfter));
      Expr first = f.binary(BinaryOp.LAND, attains, f.unary(dev.kiln.processor.ir.UnaryOp.NOT, seen), -1);
      innerSeeds.merge(term, f.select(first, aR, zero), this::add);
      outer.contribute(c.init(), f.select(initAttains, aR, zero));
    } else {
      innerSeeds.merge(term, negate ? f.unary(dev.kiln.processor.ir.UnaryOp.NEG, aR) : aR, this::add);
      outer.contribute(c.init(), aR);
    }
  }

  /** A term of a conditional sum: added (or subtracted) when {@code guard} holds. */
  private record GuardedTerm(Expr term, boolean negate, Expr guard) {}

  /**
   * {@code e} as {@code phi} plus terms each added or subtracted under a condition (the
   * {@code ?:}s that {@code if (c) acc += t} becomes), or null when it is not one.
   */
  private List<GuardedTerm> sumParts(Expr e, Expr.Var phi, Expr guard) {
    if (e == phi) {
      return new ArrayList<>();
    }
    if (e instanceof Expr.Binary b && (b.op() == BinaryOp.ADD || b.op() == BinaryOp.SUB) && b.type() == phi.type()) {
      List<GuardedTerm> left = sumParts(b.left(), phi, guard);
      if (left != null && b.right().type() == phi.type()) {
        left.add(new GuardedTerm(b.right(), b.op() == BinaryOp.SUB, guard));
        return left;
      }
      if (b.op() == BinaryOp.ADD && b.left().type() == phi.type()) {
        List<GuardedTerm> right = sumParts(b.right(), phi, guard);
        if (right != null) {
          right.add(new GuardedTerm(b.left(), false, guard));
          return right;
        }
      }
      return null;
    }
    if (e instanceof Expr.Select sel) {
      List<GuardedTerm> whenTrue = sumParts(sel.ifTrue(), phi, f.binary(BinaryOp.LAND, guard, sel.cond(), -1));
      List<GuardedTerm> whenFalse = sumParts(sel.ifFalse(), phi,
          f.binary(BinaryOp.LAND, guard, f.unary(dev.kiln.processor.ir.UnaryOp.NOT, sel.cond()), -1));
      if (whenTrue == null || whenFalse == null) {
        return null;
      }
      whenTrue.addAll(whenFalse);
      return whenTrue;
    }
    return null;
  }

  /**
   * {@code t} when {@code sel} is {@code c ? t : phi} or {@code c ? phi : t} with {@code c} a
   * comparison of {@code t} and {@code phi} ({@code if (t > m) m = t}): a running maximum or
   * minimum, whose gradient goes, as max's does, to the first value attaining the result.
   */
  private static Expr extremumTerm(Expr.Select sel, Expr.Var phi) {
    Expr t = sel.ifFalse() == phi ? sel.ifTrue() : sel.ifTrue() == phi ? sel.ifFalse() : null;
    if (t == null || t == phi || t.type() != phi.type() || !(sel.cond() instanceof Expr.Binary cmp)) {
      return null;
    }
    boolean ordered = cmp.op() == BinaryOp.LT || cmp.op() == BinaryOp.LE || cmp.op() == BinaryOp.GT || cmp.op() == BinaryOp.GE;
    Expr other = cmp.left() == phi ? cmp.right() : cmp.right() == phi ? cmp.left() : null;
    if (!ordered || other == null) {
      return null;
    }
    if (other == t) {
      return t;
    }
    // if (m > x[i]) { m = x[i]; }: the assigned read is the compared one, read under the condition
    boolean sameRead = t instanceof Expr.Load tl && other instanceof Expr.Load ol && tl.array() == ol.array()
        && tl.index() == ol.index() && tl.guard() == sel.cond() && ol.guard() instanceof Expr.Const g && g.isTrue();
    return sameRead ? other : null;
  }

  /** Whether {@code e} is {@code phi} converted to a wider floating-point type. */
  private static boolean widened(Expr e, Expr.Var phi) {
    return e instanceof Expr.Cast c && c.operand() == phi && c.type().isFloating();
  }

  /**
   * One level of a running extremum carried through nested loops: compare terms with the final
   * {@code result}, pass {@code adjoint} to the first attaining one; {@code seen} (initially
   * {@code seenInit}) says whether an earlier term attained it.
   */
  private record NestedExtremum(Expr result, Expr adjoint, Expr seenInit, Expr.Var seen, Expr.Var seenAfter) {}

  private void nestedExtremum(Stmt.Loop loop, Stmt.Carried c, NestedExtremum n, Map<Expr, Expr> innerSeeds)
      throws NotDifferentiable {
    Expr next = c.next();
    Expr.Var phi = c.phi();
    if (next instanceof Expr.Call call && (call.fn() == MathFn.MAX || call.fn() == MathFn.MIN)
        && (call.args().get(0) == phi || call.args().get(1) == phi)) {
      Expr term = call.args().get(0) == phi ? call.args().get(1) : call.args().get(0);
      Set<Expr.Var> phis = new HashSet<>();
      loop.carried().forEach(k -> phis.add(k.phi()));
      if (Levels.dependsOn(term, phis, new HashMap<>())) {
        throw notDifferentiable(phi, loop);
      }
      Expr attains = f.binary(BinaryOp.EQ, f.cast(n.result().type(), term), n.result(), -1);
      flags.computeIfAbsent(loop, k -> new ArrayList<>())
          .add(new Stmt.Carried(n.seen(), n.seenInit(), f.binary(BinaryOp.LOR, n.seen(), attains, -1), n.seenAfter()));
      Expr first = f.binary(BinaryOp.LAND, attains, f.unary(dev.kiln.processor.ir.UnaryOp.NOT, n.seen()), -1);
      innerSeeds.merge(term, f.select(first, n.adjoint(), f.constant(n.adjoint().type(), 0)), this::add);
      return;
    }
    if (next instanceof Expr.Var v && v.kind() == Expr.VarKind.LOOP_RESULT && nestedSum(loop, phi, v)) {
      Stmt.Carried inner = inner(loop, phi, v);
      Stmt.Loop innerLoop = loopOf(loop, inner);
      passThrough.add(phi);
      Expr.Var seen = f.newVar("seen", ScalarType.BOOL, Expr.VarKind.CARRIED);
      Expr.Var seenAfter = f.newVar("seen", ScalarType.BOOL, Expr.VarKind.LOOP_RESULT);
      levels.register(seen, innerLoop);
      levels.register(seenAfter, loop);
      flags.computeIfAbsent(loop, k -> new ArrayList<>()).add(new Stmt.Carried(n.seen(), n.seenInit(), seenAfter, n.seenAfter()));
      nestedExtrema.put(inner, new NestedExtremum(n.result(), n.adjoint(), n.seen(), seen, seenAfter));
      return;
    }
    throw notDifferentiable(phi, loop);
  }

  private static NotDifferentiable notDifferentiable(Expr.Var phi, Stmt.Loop loop) {
    return new NotDifferentiable("the loop-carried value '" + phi.sourceName() + "' is updated in a way Kiln cannot"
        + " differentiate; Kiln differentiates loops whose carried values are sums (acc += ...) or running"
        + " maxima or minima (m = max(m, ...))", loop.origin());
  }

  /** Whether {@code c} is a running max or min, directly or through loops nested inside its own. */
  private boolean extremumChain(Stmt.Carried c) {
    if (c == null) {
      return false;
    }
    if (c.next() instanceof Expr.Call call && (call.fn() == MathFn.MAX || call.fn() == MathFn.MIN)) {
      return true;
    }
    if (c.next() instanceof Expr.Var v && v.kind() == Expr.VarKind.LOOP_RESULT) {
      Stmt.Loop l = levels.level(c.phi()); // the loop carrying it
      return l != null && extremumChain(inner(l, c.phi(), v));
    }
    return false;
  }

  /** The loop directly inside {@code loop} that carries {@code c}. */
  private static Stmt.Loop loopOf(Stmt.Loop loop, Stmt.Carried c) {
    for (Stmt s : loop.body()) {
      if (s instanceof Stmt.Loop m && m.carried().contains(c)) {
        return m;
      }
    }
    return null;
  }

  /** The carried value of a loop directly inside {@code loop} whose result is {@code result} and which starts from {@code phi}. */
  private static Stmt.Carried inner(Stmt.Loop loop, Expr.Var phi, Expr.Var result) {
    for (Stmt s : loop.body()) {
      if (s instanceof Stmt.Loop m) {
        for (Stmt.Carried c : m.carried()) {
          if (c.result() == result && c.init() == phi) {
            return c;
          }
        }
      }
    }
    return null;
  }

  /**
   * Whether {@code result} is the result of a sum carried by a loop directly inside {@code loop}
   * that starts from {@code phi}, and {@code phi} is used nowhere else in {@code loop}: then
   * {@code loop}'s carried value is a sum too (the natural form of a sum over nested loops).
   */
  private static boolean nestedSum(Stmt.Loop loop, Expr.Var phi, Expr.Var result) {
    Stmt.Carried inner = inner(loop, phi, result);
    if (inner == null) {
      return false; // the inner loop checks its own update when it is differentiated
    }
    List<Expr> uses = new ArrayList<>();
    collectUses(loop.body(), inner, uses);
    Map<Expr, Boolean> memo = new HashMap<>();
    for (Expr e : uses) {
      if (Levels.dependsOn(e, Set.of(phi), memo)) {
        return false;
      }
    }
    return true;
  }

  /** Every expression of {@code stmts}, nested loops included, but the init of {@code except}. */
  private static void collectUses(List<Stmt> stmts, Stmt.Carried except, List<Expr> out) {
    for (Stmt s : stmts) {
      if (s instanceof Stmt.Store st) {
        out.addAll(List.of(st.index(), st.value(), st.guard()));
      } else if (s instanceof Stmt.Accumulate a) {
        out.addAll(List.of(a.index(), a.value(), a.guard()));
      } else if (s instanceof Stmt.Combine c) {
        out.add(c.index());
        out.addAll(c.values());
        out.add(c.guard());
      } else {
        Stmt.Loop l = (Stmt.Loop) s;
        out.addAll(List.of(l.lo(), l.hi(), l.guard()));
        for (Stmt.Carried c : l.carried()) {
          out.add(c.next());
          if (c != except) {
            out.add(c.init());
          }
        }
        collectUses(l.body(), except, out);
      }
    }
  }

  // ---- forward values a level needs ----

  /** The loops of {@code stmts} that compute carried values, without their stores. */
  private static List<Stmt> valueLoops(List<Stmt> stmts) {
    List<Stmt> out = new ArrayList<>();
    for (Stmt s : stmts) {
      if (s instanceof Stmt.Loop l) {
        List<Stmt> inner = valueLoops(l.body());
        if (!l.carried().isEmpty() || !inner.isEmpty()) {
          out.add(new Stmt.Loop(l.id(), l.index(), l.lo(), l.hi(), l.step(), l.guard(), l.carried(), inner, l.origin()));
        }
      }
    }
    return out;
  }

  /** Fresh variables and loop ids for the value loops copied into a reverse loop; none at the top level. */
  private void prepareCopies(Context ctx, List<Stmt> loops) {
    for (Stmt s : loops) {
      Stmt.Loop l = (Stmt.Loop) s;
      if (ctx.forward == null) {
        ctx.copies.put(l.id(), l.id());
      } else {
        ctx.copies.put(l.id(), nextLoopId++);
        ctx.vars.put(l.index(), f.newVar(l.index().name(), l.index().type(), Expr.VarKind.LOOP_INDEX));
        for (Stmt.Carried c : l.carried()) {
          ctx.vars.put(c.phi(), f.newVar(c.phi().sourceName(), c.phi().type(), Expr.VarKind.CARRIED));
          ctx.vars.put(c.result(), f.newVar(c.result().name(), c.result().type(), Expr.VarKind.LOOP_RESULT));
        }
      }
      prepareCopies(ctx, l.body());
    }
  }

  // ---- what the adjoint kernel stores ----

  private List<Stmt> storeOccurrences(Context ctx) throws NotDifferentiable {
    List<Stmt> out = new ArrayList<>();
    for (Map.Entry<OccKey, Expr> e : adjoints.entrySet()) {
      OccKey key = e.getKey();
      if (key.level() != ctx.forward) {
        continue;
      }
      List<Stmt.Loop> chain = key.level() == null ? List.of() : unionOfLaneNests(levels.chain(key.level()));
      List<Poly> extents = new ArrayList<>();
      List<Expr> coords = new ArrayList<>();
      for (GridDim g : op.grid()) {
        extents.add(g.size());
        coords.add(g.var());
      }
      for (Stmt.Loop l : chain) {
        Poly lo = invariant(l.lo(), l, key.array());
        Poly hi = invariant(l.hi(), l, key.array());
        extents.add(hi.subtract(lo));
        coords.add(f.binary(BinaryOp.SUB, l.index(), l.lo(), -1));
      }
      Shape shape = new Shape(extents.toString(), extents);
      String name = "adj$" + key.array().name() + "$" + (occurrences.size() + 1);
      Param.Array temp = new Param.Array(name, -1, key.array().elementType(), shape, ArrayRole.OUT);
      Expr flat = PolyExpr.rowMajor(f, coords, shape, sizes);
      List<Expr> guards = guardsOf.get(key);
      Occurrence occurrence = new Occurrence(key.array(), key.index(), chain, temp, origins.get(key), !guarded.contains(key),
          guards == null ? List.of() : guards);
      occurrences.add(occurrence);
      if (flattenable(e.getValue(), chain)) {
        flats.add(new Flat(occurrence, e.getValue()));
      } else {
        out.add(new Stmt.Store(temp, ctx.map(flat), ctx.map(e.getValue()), f.trueValue(), origins.get(key)));
      }
    }
    return out;
  }

  /**
   * {@code chain} with each lane nest (a loop over lanes and, inside it, the lane's strided terms:
   * {@link LaneNest}) as the one loop over every term it stands for: each index once, so the
   * adjoint of a read there is stored at that index, as for a plain loop over the range. The
   * adjoint of a term does not depend on the lane (the nest's terms read the lane only through
   * the index).
   */
  private static List<Stmt.Loop> unionOfLaneNests(List<Stmt.Loop> chain) {
    List<Stmt.Loop> out = new ArrayList<>();
    for (int i = 0; i < chain.size(); i++) {
      LaneNest nest = i + 1 < chain.size() ? LaneNest.match(chain.get(i)) : null;
      if (nest != null && nest.inner() == chain.get(i + 1)) {
        out.add(nest.union());
        i++;
      } else {
        out.add(chain.get(i));
      }
    }
    return out;
  }

  /**
   * A read inside loops whose adjoint depends only on the worker, the loop indices and values read
   * from memory (no loop-carried value, no sum of another loop): a matrix product's operands, a
   * convolution's input and kernel. Its adjoint is then computed by its own kernel over the grid
   * and the loops' ranges ({@link Flat}), with no loop, which the merger can recompute inside the
   * gather that reads it instead of storing it.
   */
  private boolean flattenable(Expr adjoint, List<Stmt.Loop> chain) {
    if (chain.isEmpty()) {
      return false;
    }
    Set<Expr.Var> allowed = new HashSet<>();
    op.grid().forEach(g -> allowed.add(g.var()));
    for (Stmt.Loop l : chain) {
      if (l.step() != 1 || !(l.guard() instanceof Expr.Const c && c.isTrue())) {
        return false;
      }
      allowed.add(l.index());
    }
    return onlyVars(adjoint, allowed, new HashMap<>());
  }

  private static boolean onlyVars(Expr e, Set<Expr.Var> allowed, Map<Expr, Boolean> memo) {
    return !Levels.reaches(e, n -> n instanceof Expr.Var v && !allowed.contains(v), memo);
  }


  /** An occurrence whose adjoint its own kernel stores (see {@link #flattenable}), in forward terms. */
  record Flat(Occurrence occurrence, Expr adjoint) {}

  /** The occurrences stored by kernels of their own rather than by the adjoint kernel. */
  List<Flat> flats() {
    return flats;
  }

  private static Poly invariant(Expr bound, Stmt.Loop l, Param.Array array) throws NotDifferentiable {
    Affine a = AffineAnalysis.affine(bound);
    if (a == null || !a.isConstant()) {
      throw new NotDifferentiable("'" + array.name() + "' is read in a loop whose bounds depend on the worker or on"
          + " another loop's index; Kiln differentiates reads in loops whose bounds are sizes or constants, and in lane"
          + " sums whose terms read the lane only through their own index", l.origin());
    }
    return a.constantPart();
  }

  private static int minResultId(Stmt.Loop l) {
    int min = Integer.MAX_VALUE;
    for (Stmt.Carried c : l.carried()) {
      min = Math.min(min, c.result().id());
    }
    return min;
  }
}
