package dev.kiln.processor.codegen.cpu;

import dev.kiln.processor.ir.analysis.Affine;
import dev.kiln.processor.ir.analysis.AffineAnalysis;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.MathFn;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.analysis.LaneNest;
import dev.kiln.processor.ir.UnaryOp;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Decides whether a grid kernel has a SIMD form: its workers along the innermost grid dimension
 * {@code v} run as the lanes of a {@code FloatVector}, with the same floats as the scalar kernel.
 *
 * <p>The rule: every effect is a store (its guard becomes the store's lane mask) into a {@code float} array at an index whose
 * affine form has coefficient exactly 1 in {@code v} (neighbouring workers write neighbouring
 * elements); every value that depends on {@code v} is a {@code float} (or a comparison of floats)
 * computed by +, -, *, /, negation, a select, or a function with a bit-exact vector form ({@link
 * #VECTOR_FUNCTIONS}, or {@code KRandom.uniform} or {@code normal} with a shared seed and stream at an index with
 * coefficient 1 in {@code v}: {@link VectorRandomCode}); every read that depends on {@code v} is a unit-stride load of a {@code float}
 * array (a guarded read is a masked load: lanes whose guard is false read nothing and get zero,
 * as the scalar read does); {@code v} itself appears only in indices; and no array is both read and
 * written, except an array read only at the one index the worker's top level stores it at (its own
 * element: a record carried from what the array holds and stored back). Everything independent of {@code v} stays scalar code. Workers are independent (the
 * race check proved it), so running sixteen of them at once statement by statement is the same
 * computation as running them one after another.
 */
public final class SimdPlan {
  /** Calls whose vector form gives KMath's float bits: Vector API lanewise ops and those VectorMathCode writes. */
  static final Set<MathFn> VECTOR_FUNCTIONS =
      EnumSet.of(MathFn.MAX, MathFn.MIN, MathFn.ABS, MathFn.SQRT, MathFn.EXP, MathFn.TANH, MathFn.SIGMOID,
          MathFn.ERF);

  private static final Set<BinaryOp> ARITHMETIC = EnumSet.of(BinaryOp.ADD, BinaryOp.SUB, BinaryOp.MUL, BinaryOp.DIV);

  private final Expr.Var lane;
  private final Set<Param.Array> stored = new HashSet<>();
  /** In a sequential loop, the indices at which each stored array is written. */
  private final java.util.Map<Param.Array, List<Expr>> storedAt = new java.util.HashMap<>();
  /**
   * In lanes mode, the indices at which the worker's top level stores each array (an array also
   * stored inside a sequential loop maps to null): where a worker reads such an array only at the
   * one index it stores it at, each lane reads its own element ({@link #readsOwnElement}).
   */
  private final Map<Param.Array, Expr> topLevelStores = new HashMap<>();
  /** The sequential loop this plan checks, or null for a grid's lanes. */
  private Stmt.Loop loop;
  private final Map<Expr, Boolean> varying = new HashMap<>();
  private final Set<Expr> checked = new HashSet<>();
  /** Values carried by sequential loops in lane mode: one per lane, so vectors. */
  private final Set<Expr> vectorVars = new HashSet<>();

  private SimdPlan(Expr.Var lane) {
    this.lane = lane;
  }

  /** The dependence test alone, for code generation. */
  static SimdPlan forLane(Expr.Var lane) {
    return new SimdPlan(lane);
  }

  /** The dependence test of an accepted loop's vector step: its index, and each {@link FoldKind#ANY} value (a mask). */
  static SimdPlan forLoop(Stmt.Loop l) {
    SimdPlan plan = new SimdPlan(l.index());
    for (Fold f : folds(l)) {
      if (f.kind() == FoldKind.ANY) {
        plan.vectorVars.add(f.carried().phi());
      }
    }
    return plan;
  }

  /** Null when {@code op} has a SIMD form; else why not, in words. */
  public static String refusal(OperatorIr.Grid op) {
    if (op.grid().isEmpty()) {
      return "not a grid kernel";
    }
    if (!op.scratch().isEmpty()) {
      return "each worker keeps " + op.scratch().get(0).name() + " for itself";
    }
    if (op.finishes()) {
      return "it reduces over all its workers and runs statements after them";
    }
    SimdPlan plan = forLanes(op);
    String why = plan.collectStores(op.body());
    return why != null ? why : plan.checkStatements(op.body());
  }

  /**
   * The dependence test for {@code op}'s workers as lanes: the innermost grid index, and every
   * value carried by a sequential loop (each lane carries its own, so it is a vector).
   */
  static SimdPlan forLanes(OperatorIr.Grid op) {
    SimdPlan plan = new SimdPlan(op.grid().get(op.grid().size() - 1).var());
    plan.collectCarried(op.body());
    return plan;
  }

  private void collectCarried(List<Stmt> body) {
    for (Stmt s : body) {
      if (s instanceof Stmt.Loop l) {
        for (Stmt.Carried c : l.carried()) {
          vectorVars.add(c.phi());
          vectorVars.add(c.result());
        }
        collectCarried(l.body());
      }
    }
  }

  /** Every store, in loops too: unit-stride in the lane, into a float array; notes the arrays written. */
  private String collectStores(List<Stmt> body) {
    return collectStores(body, true);
  }

  private String collectStores(List<Stmt> body, boolean topLevel) {
    for (Stmt s : body) {
      if (s instanceof Stmt.Accumulate || s instanceof Stmt.Combine) {
        return "a worker accumulates into a @Reduce output";
      }
      if (s instanceof Stmt.Loop l) {
        String why = collectStores(l.body(), false);
        if (why != null) {
          return why;
        }
        continue;
      }
      Stmt.Store store = (Stmt.Store) s;
      if (store.array().elementType() != ScalarType.FLOAT) {
        return store.array().name() + " is not a float array";
      }
      if (!unitStride(store.index())) {
        return "neighbouring workers do not write neighbouring elements of " + store.array().name();
      }
      boolean first = stored.add(store.array());
      boolean one = topLevel && (first || topLevelStores.get(store.array()) == store.index());
      topLevelStores.put(store.array(), one ? store.index() : null);
    }
    return null;
  }

  /**
   * Stores' values, indices and guards; a sequential loop's bounds and guard the same in every
   * lane, its carried values floats (vectors: every lane runs the loop in its own order).
   */
  private String checkStatements(List<Stmt> body) {
    for (Stmt s : body) {
      String why;
      if (s instanceof Stmt.Loop l) {
        if (varying(l.lo()) || varying(l.hi()) || varying(l.guard())) {
          return "a sequential loop's bounds or condition differ between neighbouring workers";
        }
        why = first3(checkScalar(l.lo()), checkScalar(l.hi()), checkScalar(l.guard()));
        for (Stmt.Carried c : l.carried()) {
          if (why == null && c.phi().type() != ScalarType.FLOAT) {
            why = "a loop carries " + c.phi().name() + ", not a float";
          }
          why = why != null ? why : first3(checkValue(c.init()), checkValue(c.next()), null);
        }
        why = why != null ? why : checkStatements(l.body());
      } else {
        Stmt.Store store = (Stmt.Store) s;
        why = first3(checkValue(store.value()), checkIndex(store.index()), checkValue(store.guard()));
      }
      if (why != null) {
        return why;
      }
    }
    return null;
  }

  /** The listing's note of a kernel whose loops the launcher deals to the threads ({@link DealtLoops}), or "". */
  private static String dealt(OperatorIr.Grid op) {
    int parts = DealtLoops.parts(op).size();
    return parts == 0 ? "" : ", its " + parts + " loops dealt to the threads over blocks of " + DealtLoops.ROW_BLOCK + " lanes";
  }

  /** How a kernel runs on SIMD lanes, or why it does not; the listing prints {@link #text}. */
  public record Verdict(boolean lanes, boolean loops, String text) {
    public boolean simd() {
      return lanes || loops;
    }
  }

  /**
   * Workers as lanes when {@link #refusal} accepts the kernel; else, when some of its innermost
   * sequential loops are accepted by {@link #loopRefusal} and nothing else in the worker needs
   * the scalar kernel's set-up (accumulations into {@code @Reduce} outputs), a SIMD form that runs
   * each worker as the scalar kernel does with those loops as vectors.
   */
  public static Verdict judge(OperatorIr.Grid op, boolean reorderSums) {
    String lanes = refusal(op);
    if (lanes == null) {
      return new Verdict(true, false, "yes, neighbouring workers as lanes"
          + (ColumnLoops.applies(op) ? ", rows outermost over blocks of " + ColumnLoops.BLOCK + " lanes" : "")
          + (StoreStreams.pieces(op).isEmpty() ? "" : ", a loop a store in rows of at most " + StoreStreams.MAX_ROW)
          + dealt(op));
    }
    if (op.grid().isEmpty()) {
      return new Verdict(false, false, "no, " + lanes);
    }
    // the worker as the SIMD form runs it: its recomputable scratch rows computed where read
    ScratchRecompute.Recomputed recomputed = ScratchRecompute.apply(op);
    op = recomputed.op();
    List<Stmt.Loop> innermost = new ArrayList<>();
    if (hasAccumulate(op.body(), innermost)) {
      return new Verdict(false, false, "no, " + lanes);
    }
    List<LaneNest> nests = laneNests(op.body());
    nests.forEach(n -> innermost.remove(n.inner()));
    int accepted = 0;
    String firstWhy = null;
    for (Stmt.Loop l : innermost) {
      String why = loopRefusal(l);
      if (why == null) {
        accepted++;
      } else if (firstWhy == null) {
        firstWhy = why;
      }
    }
    if (accepted == 0 && nests.isEmpty()) {
      return new Verdict(false, false, "no, " + lanes + (firstWhy == null ? "" : "; its loops: " + firstWhy));
    }
    CallStash.Stashed stashed = CallStash.applyAll(op);
    OperatorIr.Grid jammed = RowJam.jam(stashed.op());
    long after = innermostLoops((jammed != null ? jammed : stashed.op()).body()).stream()
        .filter(l -> loopRefusal(l) == null && SimdLoops.readsTermsAfter(l, reorderSums)).count();
    List<String> parts = new ArrayList<>();
    if (!innermost.isEmpty()) {
      parts.add(accepted + " of " + innermost.size() + " sequential loops as vectors"
          + (firstWhy == null ? "" : " (not: " + firstWhy + ")"));
    }
    if (!nests.isEmpty()) {
      parts.add(nests.size() + (nests.size() == 1 ? " lane sum" : " lane sums") + " as vectors");
    }
    return new Verdict(false, true, "yes, " + String.join(", ", parts)
        + recomputed.notes().stream().map(n -> ", " + n).collect(java.util.stream.Collectors.joining())
        + stashed.notes().stream().map(n -> ", " + n).collect(java.util.stream.Collectors.joining())
        + (jammed != null ? ", " + RowJam.ROWS + " rows at a time" : "")
        + (after == 0 ? "" : ", " + after + (after == 1 ? " loop adds" : " loops add")
            + " its sums after its vectors, from the terms it stores or loads"));
  }

  /**
   * The lane nests of {@code body} (at any depth) that {@link LaneSums} writes as vectors, in
   * program order.
   */
  static List<LaneNest> laneNests(List<Stmt> body) {
    List<LaneNest> out = new ArrayList<>();
    for (Stmt s : body) {
      if (s instanceof Stmt.Loop l) {
        LaneNest n = LaneNest.match(l);
        if (n != null && LaneSums.refusal(n) == null) {
          out.add(n);
        } else {
          out.addAll(laneNests(l.body()));
        }
      }
    }
    return out;
  }

  /** Whether any statement accumulates; collects the loops that hold no loop. */
  private static boolean hasAccumulate(List<Stmt> body, List<Stmt.Loop> innermost) {
    for (Stmt s : body) {
      if (s instanceof Stmt.Accumulate || s instanceof Stmt.Combine) {
        return true;
      }
      if (s instanceof Stmt.Loop l) {
        if (l.body().stream().noneMatch(b -> b instanceof Stmt.Loop)) {
          innermost.add(l);
        }
        if (hasAccumulate(l.body(), innermost)) {
          return true;
        }
      }
    }
    return false;
  }

  /** The sequential loops of {@code body} that hold no loop (all of them when nothing accumulates, as in the loops form). */
  static List<Stmt.Loop> innermostLoops(List<Stmt> body) {
    List<Stmt.Loop> innermost = new ArrayList<>();
    hasAccumulate(body, innermost);
    return innermost;
  }

  /** How a loop's carried value is updated from one iteration to the next. */
  enum FoldKind {
    /** Not updated. */
    NONE,
    /** {@code max(phi, term)}: lanes kept apart and reduced at the end (max is exact in any order). */
    MAX,
    /** {@code min(phi, term)}. */
    MIN,
    /** {@code phi op term} (or {@code term op phi}): the terms of each vector applied in index order. */
    IN_ORDER,
    /**
     * {@code phi || term} on a boolean ("seen so far"): in a vector step, lane {@code i} sees the
     * value before it, {@code phi || term} of some earlier lane, from the first lane whose term
     * holds; the body may use it (the first maximum of a row: {@code x[k] == m && !seen}).
     */
    ANY
  }

  /** A carried value's update: {@code kind}, the per-iteration {@code term}, and for IN_ORDER the operator. */
  record Fold(Stmt.Carried carried, FoldKind kind, Expr term, BinaryOp op, boolean phiLeft) {}

  /** The folds of an accepted loop's carried values, in order. */
  static List<Fold> folds(Stmt.Loop l) {
    List<Fold> folds = new ArrayList<>();
    for (Stmt.Carried c : l.carried()) {
      folds.add(fold(c));
    }
    return folds;
  }

  private static Fold fold(Stmt.Carried c) {
    Expr next = c.next();
    Expr phi = c.phi();
    if (next == phi) {
      return new Fold(c, FoldKind.NONE, null, null, true);
    }
    if (next instanceof Expr.Call call && call.type() == ScalarType.FLOAT
        && (call.fn() == MathFn.MAX || call.fn() == MathFn.MIN)) {
      Expr a = call.args().get(0);
      Expr b = call.args().get(1);
      Expr term = a == phi ? b : b == phi ? a : null;
      if (term != null) {
        return new Fold(c, call.fn() == MathFn.MAX ? FoldKind.MAX : FoldKind.MIN, term, null, true);
      }
    }
    if (next instanceof Expr.Binary b && b.op() == BinaryOp.LOR && phi.type() == ScalarType.BOOL
        && (b.left() == phi || b.right() == phi)) {
      Expr term = b.left() == phi ? b.right() : b.left();
      return term.dependsOn(phi) ? null : new Fold(c, FoldKind.ANY, term, BinaryOp.LOR, b.left() == phi);
    }
    if (next instanceof Expr.Binary b && b.type() == ScalarType.FLOAT && ARITHMETIC.contains(b.op())) {
      if (b.left() == phi) {
        return new Fold(c, FoldKind.IN_ORDER, b.right(), b.op(), true);
      }
      if (b.right() == phi) {
        return new Fold(c, FoldKind.IN_ORDER, b.left(), b.op(), false);
      }
    }
    return null;
  }

  /**
   * Null when a sequential loop can run a vector of iterations at a time with the same floats:
   * index step 1; only stores in its body, unit-stride in its index, into float arrays it does not
   * read; every carried value a float updated only by a fold ({@link FoldKind}) whose term and
   * every stored value have vector forms (the rules of {@link #refusal}, with the loop index as
   * the lane). Else why not.
   */
  static String loopRefusal(Stmt.Loop l) {
    if (l.step() != 1 || l.index().type() != ScalarType.INT) {
      return "a loop's step is not 1";
    }
    SimdPlan plan = new SimdPlan(l.index());
    plan.loop = l;
    for (Stmt s : l.body()) {
      if (!(s instanceof Stmt.Store store)) {
        return "a loop accumulates into a @Reduce output";
      }
      if (store.array().elementType() != ScalarType.FLOAT) {
        return "a loop stores into " + store.array().name() + ", not a float array";
      }
      if (!plan.unitStride(store.index())) {
        return "a loop's store into " + store.array().name() + " is not unit-stride in " + l.index().name();
      }
      plan.stored.add(store.array());
      plan.storedAt.computeIfAbsent(store.array(), a -> new ArrayList<>()).add(store.index());
    }
    // Stores into one array at different indices must never write the same element: a vector of
    // iterations runs each store for all its lanes in turn, so where iteration k's second store and
    // iteration k + 1's first wrote one element, the vector would keep the second's value and the
    // scalar loop the first's.
    for (Map.Entry<Param.Array, List<Expr>> e : plan.storedAt.entrySet()) {
      if (!AffineAnalysis.storesApart(l, e.getValue())) {
        return "a loop's stores into " + e.getKey().name() + " may write one element in different iterations";
      }
    }
    List<Expr> phis = new ArrayList<>();
    for (Stmt.Carried c : l.carried()) {
      Fold f = fold(c);
      if (f != null && f.kind() == FoldKind.ANY) {
        if (SimdLoops.heavyCalls(l) > 0) {
          return "a loop carries " + c.phi().name() + " beside an exp, tanh, sigmoid or erf call";
        }
        plan.vectorVars.add(c.phi()); // used in the body as a mask: what the lanes before have seen
        continue;
      }
      if (c.phi().type() != ScalarType.FLOAT) {
        return "a loop carries " + c.phi().name() + ", not a float";
      }
      phis.add(c.phi());
    }
    List<Expr> uses = new ArrayList<>();
    for (Stmt s : l.body()) {
      Stmt.Store store = (Stmt.Store) s;
      uses.addAll(List.of(store.value(), store.index(), store.guard()));
      String why = first3(plan.checkValue(store.value()), plan.checkIndex(store.index()), plan.checkValue(store.guard()));
      if (why != null) {
        return why;
      }
    }
    for (Stmt.Carried c : l.carried()) {
      Fold f = fold(c);
      if (f == null) {
        return "a loop updates " + c.phi().name() + " by other than max, min, || or one arithmetic operation with a term";
      }
      if (f.term() != null) {
        uses.add(f.term());
        String why = plan.checkValue(f.term());
        if (why != null) {
          return why;
        }
      }
    }
    for (Expr u : uses) {
      for (Expr phi : phis) {
        if (u.dependsOn(phi)) {
          return "a loop uses " + ((Expr.Var) phi).name() + " before the loop ends";
        }
      }
    }
    return null;
  }

  private static String first3(String a, String b, String c) {
    return a != null ? a : b != null ? b : c;
  }

  /** Whether {@code e} depends on the lane variable. */
  boolean varying(Expr e) {
    Boolean known = varying.get(e);
    if (known != null) {
      return known;
    }
    boolean v = e == lane || vectorVars.contains(e);
    for (Expr o : e.operands()) {
      v |= varying(o);
    }
    varying.put(e, v);
    return v;
  }

  /**
   * For an int comparison with a vector form ({@link VectorBody}): the side that depends on the lane
   * variable, affine in it with coefficient 1 (the lane plus lane-free terms), when the other side
   * does not depend on it; else null.
   */
  Expr laneCompared(Expr.Binary b) {
    boolean l = varying(b.left());
    boolean r = varying(b.right());
    if (l == r) {
      return null;
    }
    Expr moving = l ? b.left() : b.right();
    return unitStride(moving) ? moving : null;
  }

  /** Whether {@code index} has coefficient exactly 1 in the lane: neighbouring lanes, neighbouring elements. */
  boolean unitStride(Expr index) {
    Affine a = AffineAnalysis.affine(index);
    return a != null && a.coefficient(lane.name()).equals(Poly.ONE);
  }

  /** Scalar parts of an index may be anything but reads of written arrays; the lane enters with stride 1. */
  private String checkIndex(Expr index) {
    if (varying(index) && !unitStride(index)) {
      return "an index is not unit-stride in " + lane.name();
    }
    return checkScalar(index);
  }

  /**
   * In lanes mode, whether {@code load} reads the one element its worker's top level stores the
   * array at (unconditionally read, unit-stride in the lane): a record carried from what the array
   * holds and stored back. Each lane then touches its own element only, so running the lanes
   * statement by statement reads and writes what the workers one by one would.
   */
  private boolean readsOwnElement(Expr.Load load) {
    return loop == null && isTrue(load.guard()) && topLevelStores.get(load.array()) == load.index()
        && unitStride(load.index());
  }

  /**
   * Whether a read of an array the loop stores into is at the very index of one of its stores, with
   * no guard, and every other store into that array in the loop writes elements a whole trip of the
   * loop away ({@code (b + j) * N + k} for rows j, with k from 0 to N): then in scalar and vector code
   * alike it sees only its own element, as written by the iteration's earlier statements or not yet
   * (CallStash's read-back, in RowJam's rows).
   */
  private boolean readsBackOwnElement(Expr.Load load) {
    List<Expr> at = storedAt.get(load.array());
    if (loop == null || at == null || !at.contains(load.index()) || !isTrue(load.guard())) {
      return false;
    }
    return AffineAnalysis.wholeTripsApart(loop, load.index(), at);
  }

  /**
   * For each fold of an accepted loop, the store whose value is the fold's term, where the loop
   * can add the terms after its vectors by reading them back from that array: a store with no
   * guard, at the loop's unit-stride index, whose elements no other store of the loop writes
   * ({@link AffineAnalysis#wholeTripsApart}); null elsewhere.
   */
  static List<Stmt.Store> storedTerms(Stmt.Loop l, List<Fold> folds) {
    Map<Param.Array, List<Expr>> at = storedIndices(l);
    List<Stmt.Store> out = new ArrayList<>();
    for (Fold f : folds) {
      Stmt.Store found = null;
      for (Stmt s : l.body()) {
        Stmt.Store store = (Stmt.Store) s;
        if (f.kind() == FoldKind.IN_ORDER && store.value() == f.term() && isTrue(store.guard())
            && writesOwnElements(l, store, at)) {
          found = store;
          break;
        }
      }
      out.add(found);
    }
    return out;
  }

  /**
   * The stores of an accepted loop in groups that share no computation (no expression but
   * variables, constants and scalar parameters), in the body's order: each group can run as a loop of its own,
   * one after the other, with the same results, when the loop reads no array it writes and no
   * two groups write the same elements (checked here: a group's store into an array another group
   * writes must write its own elements, {@link AffineAnalysis#wholeTripsApart}). A single group where they cannot be split.
   */
  static List<List<Stmt>> independentStores(Stmt.Loop l) {
    return independentStores(l, false);
  }

  /**
   * {@link #independentStores(Stmt.Loop)}, where with {@code recomputeCheap} the groups may also
   * share what each can cheaply compute again: loads, integer index arithmetic, and whatever does
   * not change along the loop (a row's mean, {@code (float) N}). Four jammed rows' outputs of layer
   * norm share the loads of {@code gamma[n]} and {@code beta[n]}; each row in a loop of its own
   * loads them again, and is the same floats.
   */
  static List<List<Stmt>> independentStores(Stmt.Loop l, boolean recomputeCheap) {
    List<Stmt> body = l.body();
    Map<Param.Array, List<Expr>> at = storedIndices(l);
    int[] group = new int[body.size()];
    Map<Expr, Integer> owner = new HashMap<>();
    for (int i = 0; i < body.size(); i++) {
      group[i] = i;
      Stmt.Store store = (Stmt.Store) body.get(i);
      if (!writesOwnElements(l, store, at)) {
        return List.of(body);
      }
      java.util.Deque<Expr> work = new java.util.ArrayDeque<>();
      for (Expr root : new Expr[] {store.index(), store.value(), store.guard()}) {
        if (root != null) {
          work.push(root);
        }
      }
      Set<Expr> seen = new HashSet<>();
      while (!work.isEmpty()) {
        Expr e = work.pop();
        if (!seen.add(e)) {
          continue;
        }
        if (e instanceof Expr.Load load && at.containsKey(load.array())) {
          return List.of(body);
        }
        for (Expr o : e.operands()) {
          if (o != null) {
            work.push(o);
          }
        }
        if (e.operands().isEmpty()) {
          continue; // a variable, a constant, a scalar parameter
        }
        if (recomputeCheap && (e instanceof Expr.Load || e.type().isIntegral() || !e.dependsOn(l.index()))) {
          continue; // each group computes it again
        }
        Integer other = owner.putIfAbsent(e, i);
        if (other != null) {
          union(group, other, i);
        }
      }
    }
    Map<Integer, List<Stmt>> groups = new java.util.LinkedHashMap<>();
    for (int i = 0; i < body.size(); i++) {
      groups.computeIfAbsent(find(group, i), g -> new ArrayList<>()).add(body.get(i));
    }
    return List.copyOf(groups.values());
  }

  /** The indices at which an accepted loop's stores write each array, in the body's order. */
  private static Map<Param.Array, List<Expr>> storedIndices(Stmt.Loop l) {
    Map<Param.Array, List<Expr>> at = new HashMap<>();
    for (Stmt s : l.body()) {
      Stmt.Store store = (Stmt.Store) s;
      at.computeIfAbsent(store.array(), a -> new ArrayList<>()).add(store.index());
    }
    return at;
  }

  /**
   * Whether no other store of the loop writes {@code store}'s elements: no other store at its
   * index, every other index a whole trip away ({@code at}: {@link #storedIndices}).
   */
  private static boolean writesOwnElements(Stmt.Loop l, Stmt.Store store, Map<Param.Array, List<Expr>> at) {
    List<Expr> indices = at.get(store.array());
    return Collections.frequency(indices, store.index()) == 1
        && AffineAnalysis.wholeTripsApart(l, store.index(), indices);
  }

  private static int find(int[] group, int i) {
    while (group[i] != i) {
      i = group[i];
    }
    return i;
  }

  private static void union(int[] group, int a, int b) {
    int ra = find(group, a);
    int rb = find(group, b);
    if (ra != rb) {
      group[Math.max(ra, rb)] = Math.min(ra, rb);
    }
  }

  private String checkScalar(Expr e) {
    if (!checked.add(e)) {
      return null;
    }
    if (e instanceof Expr.Load load) {
      if (stored.contains(load.array())) {
        return "a worker reads " + load.array().name() + ", which it also writes";
      }
    }
    for (Expr o : e.operands()) {
      String why = checkScalar(o);
      if (why != null) {
        return why;
      }
    }
    return null;
  }

  private String checkValue(Expr e) {
    if (!varying(e)) {
      return checkScalar(e);
    }
    if (!checked.add(e)) {
      return null;
    }
    if (e instanceof Expr.Load load) {
      if (load.array().elementType() != ScalarType.FLOAT) {
        return "a worker reads " + load.array().name() + ", not a float array, at its own index";
      }
      if (varying(load.index()) && !unitStride(load.index())) {
        return "a read of " + load.array().name() + " is not unit-stride in " + lane.name();
      }
      if (stored.contains(load.array()) && !readsBackOwnElement(load) && !readsOwnElement(load)) {
        return "a worker reads " + load.array().name() + ", which it also writes";
      }
      String why = checkScalar(load.index());
      return why != null ? why : checkValue(load.guard()); // a guard becomes the load's mask
    }
    if (e.type() != ScalarType.FLOAT && e.type() != ScalarType.BOOL) {
      return "a " + e.type().javaName() + " value depends on " + lane.name();
    }
    if (e instanceof Expr.Binary b && b.op().isComparison() && b.left().type() == ScalarType.INT) {
      // an index compared with a bound (a causal mask, j <= i): the lanes' consecutive values
      Expr moving = laneCompared(b);
      if (moving == null) {
        return "the comparison " + b.op().javaSymbol() + " of ints that depend on " + lane.name()
            + " is not of the lane variable (plus lane-free terms) with a lane-free bound";
      }
      return first(checkScalar(moving), moving == b.left() ? b.right() : b.left());
    }
    if (e instanceof Expr.Binary b) {
      boolean ok = b.op().isComparison() ? b.left().type() == ScalarType.FLOAT
          : e.type() == ScalarType.FLOAT ? ARITHMETIC.contains(b.op())
          : b.op() == BinaryOp.LAND || b.op() == BinaryOp.LOR;
      return ok ? first(checkValue(b.left()), b.right()) : "operator " + b.op().javaSymbol() + " has no vector form here";
    }
    if (e instanceof Expr.Unary u) {
      boolean ok = e.type() == ScalarType.FLOAT ? u.op() == UnaryOp.NEG : u.op() == UnaryOp.NOT;
      return ok ? checkValue(u.operand()) : "operator " + u.op().javaSymbol() + " has no vector form here";
    }
    if (e instanceof Expr.Select s) {
      if (e.type() != ScalarType.FLOAT) {
        return "a boolean select depends on " + lane.name();
      }
      return first(first(checkValue(s.cond()), s.ifTrue()), s.ifFalse());
    }
    if (e instanceof Expr.Call c && c.fn().random()) {
      // KRandom.uniform or normal at consecutive indices, a lane each (VectorRandomCode); seed and stream shared
      if (varying(c.args().get(0)) || varying(c.args().get(1))) {
        return "KRandom." + c.fn().javaName() + "'s seed or stream depends on " + lane.name();
      }
      String why = first(checkScalar(c.args().get(0)), c.args().get(1));
      return why != null ? why : checkIndex(c.args().get(2));
    }
    if (e instanceof Expr.Call c) {
      if (e.type() != ScalarType.FLOAT || !VECTOR_FUNCTIONS.contains(c.fn())) {
        return c.fn().javaName() + " has no bit-exact vector form";
      }
      String why = null;
      for (Expr a : c.args()) {
        why = why != null ? why : checkValue(a);
      }
      return why;
    }
    if (e instanceof Expr.Cast c) {
      return c.operand().type() == ScalarType.FLOAT ? checkValue(c.operand()) : "a conversion depends on " + lane.name();
    }
    if (vectorVars.contains(e)) {
      return null; // a lane's own carried value
    }
    return lane.name() + " is used as a value, not only as an index";
  }

  private String first(String why, Expr next) {
    return why != null ? why : checkValue(next);
  }

  static boolean isTrue(Expr guard) {
    return guard instanceof Expr.Const c && c.isTrue();
  }
}
