package dev.kiln.processor.codegen.cuda;

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
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which workers' loops a block's threads can share ({@link RowKernelWriter} writes the kernel), and
 * how each loop's carried values fold.
 *
 * <p>{@link Layout#ROWS}: every sequential loop at the worker's top level must be <em>shareable</em>:
 * step 1; only stores in its body, each at an index with stride ±1 in the loop index (so iterations
 * write distinct elements, and neighbouring threads neighbouring ones); reads that depend on the
 * loop index with stride ±1 too, and a read of an array the loop stores into only at the very index
 * of its stores (a thread reads back its own element); each carried value updated by a fold:
 *
 * <ul>
 *   <li>{@code phi + t}, {@code t + phi}, {@code phi - t}: each thread sums its iterations' terms in
 *       order, a block reduction adds the threads' sums in a fixed tree, the result is {@code init +}
 *       that; the loop's value of {@code phi} used nowhere else;
 *   <li>{@code max(phi, t)}, {@code min(phi, t)}: likewise (exact in any order);
 *   <li>{@code phi || t} ("seen so far", the first maximum of a row in softmax's gradient): a first
 *       pass finds the first iteration whose {@code t} holds (a block minimum of each thread's
 *       first), and iteration {@code k} sees {@code init || first < k}.
 * </ul>
 *
 * <p>{@link Layout#COLUMNS}, when the rows' rules refuse a worker (a read walks with another stride):
 * every top-level loop stores nothing and folds with sums, differences, max or min.
 *
 * <p>Either way, a loop over fewer than {@link #MIN_TRIP} iterations known at compile time is not
 * shared (most threads would idle), and the answer is a {@link Plan} or the reason, which the
 * {@code .cu} prints beside the one-thread-a-worker kernel.
 */
final class SharedLoopPlan {
  /** Loops with fewer iterations than this, known at compile time, are not shared. */
  static final int MIN_TRIP = 64;

  /** {@link #plan}'s answer for a worker without sequential loops. */
  static final String NO_LOOP = "a worker has no sequential loop";

  /** How a shared loop's carried value is folded. */
  enum FoldKind {
    NONE,
    SUM,
    /** {@code phi - t}: each thread keeps {@code -0 - t1 - t2 ...}; the result is {@code init + tree sum}. */
    DIFFERENCE,
    MAX,
    MIN,
    ANY
  }

  record Fold(Stmt.Carried carried, FoldKind kind, Expr term) {}

  /** How a block's threads are laid out over workers and loop iterations. */
  enum Layout {
    /** One block a worker, its threads (x) sharing each loop: loops that walk a row. */
    ROWS,
    /**
     * Blocks of 32 workers (x) by 32 threads (y), the 32 sharing each loop of their worker: loops that
     * walk down a column (the bias gradient's sum over a batch), where neighbouring workers read
     * neighbouring elements. Only loops that store nothing (folds alone) take this form.
     */
    COLUMNS
  }

  /** The shared loops, each with its carried values' folds, and the layout. */
  record Plan(Map<Stmt.Loop, List<Fold>> loops, Layout layout) implements CudaPlan {}

  private SharedLoopPlan() {}


  /** The plan for a grid kernel without {@code @Reduce} outputs ({@code op} widened), or why it is not a row kernel. */
  static CudaPlan plan(OperatorIr.Grid op) {
    if (!op.scratch().isEmpty()) {
      return new CudaPlan.Refused("each worker keeps " + op.scratch().get(0).name() + " for itself");
    }
    CudaPlan rows = plan(op, Layout.ROWS);
    if (rows instanceof Plan || op.grid().isEmpty()) {
      return rows;
    }
    return plan(op, Layout.COLUMNS) instanceof Plan columns ? columns : rows;
  }

  private static CudaPlan plan(OperatorIr.Grid op, Layout layout) {
    Map<Stmt.Loop, List<Fold>> loops = new IdentityHashMap<>();
    for (Stmt s : op.body()) {
      if (s instanceof Stmt.Accumulate || s instanceof Stmt.Combine) {
        return new CudaPlan.Refused("a worker accumulates into a @Reduce output");
      }
      if (s instanceof Stmt.Loop l) {
        List<Fold> folds = new ArrayList<>();
        String why = layout == Layout.ROWS ? shareable(l, folds) : foldsOnly(l, folds);
        if (why != null) {
          return new CudaPlan.Refused(why);
        }
        loops.put(l, folds);
      }
    }
    if (loops.isEmpty()) {
      return new CudaPlan.Refused(NO_LOOP);
    }
    return new Plan(loops, layout);
  }

  /** Why either layout refuses {@code l} for its step or its trip count, or null. */
  private static String shapeRefusal(Stmt.Loop l) {
    if (l.step() != 1 || l.index().type() != ScalarType.INT) {
      return "a loop's step is not 1";
    }
    if (l.lo() instanceof Expr.Const lo && l.hi() instanceof Expr.Const hi
        && hi.integralValue() - lo.integralValue() < MIN_TRIP) {
      return "a loop makes fewer than " + MIN_TRIP + " iterations";
    }
    return null;
  }

  /**
   * For {@link Layout#COLUMNS}: adds to {@code folds} those of a loop that stores nothing and only
   * folds; returns why not, or null.
   */
  private static String foldsOnly(Stmt.Loop l, List<Fold> folds) {
    String shape = shapeRefusal(l);
    if (shape != null) {
      return shape;
    }
    if (!l.body().isEmpty()) {
      return "a loop stores";
    }
    List<Expr> reduced = new ArrayList<>();
    for (Stmt.Carried c : l.carried()) {
      Fold f = fold(c);
      if (f == null || f.kind() == FoldKind.ANY) {
        return "a loop updates " + c.phi().name() + " by other than +, -, max or min";
      }
      folds.add(f);
      if (f.kind() != FoldKind.NONE) {
        reduced.add(c.phi());
      }
    }
    for (Fold f : folds) {
      for (Expr phi : reduced) {
        if (f.term() != null && f.term().dependsOn(phi)) {
          return "a loop uses " + ((Expr.Var) phi).name() + " before the loop ends";
        }
      }
    }
    return null;
  }

  /**
   * Adds to {@code folds} those of {@code l}'s carried values when its iterations can be shared;
   * returns why they cannot, or null.
   */
  private static String shareable(Stmt.Loop l, List<Fold> folds) {
    String shape = shapeRefusal(l);
    if (shape != null) {
      return shape;
    }
    Map<Param.Array, Set<Expr>> storedAt = new LinkedHashMap<>();
    for (Stmt s : l.body()) {
      if (!(s instanceof Stmt.Store store)) {
        return s instanceof Stmt.Loop ? "a loop holds another loop" : "a loop accumulates into a @Reduce output";
      }
      if (stride(store.index(), l.index()) == 0) {
        return "a loop's store into " + store.array().name() + " does not move with " + l.index().name();
      }
      storedAt.computeIfAbsent(store.array(), a -> new HashSet<>()).add(store.index());
    }
    for (Map.Entry<Param.Array, Set<Expr>> e : storedAt.entrySet()) {
      if (e.getValue().size() > 1) {
        return "a loop stores into " + e.getKey().name() + " at two indices";
      }
    }
    List<Expr> reduced = new ArrayList<>();
    List<Expr> uses = new ArrayList<>();
    for (Stmt s : l.body()) {
      Stmt.Store store = (Stmt.Store) s;
      uses.addAll(List.of(store.index(), store.value(), store.guard()));
    }
    for (Stmt.Carried c : l.carried()) {
      Fold f = fold(c);
      if (f == null) {
        return "a loop updates " + c.phi().name() + " by other than +, -, max, min or ||";
      }
      folds.add(f);
      if (f.term() != null) {
        uses.add(f.term());
      }
      if (f.kind() != FoldKind.NONE && f.kind() != FoldKind.ANY) {
        reduced.add(c.phi());
      }
      if (f.kind() == FoldKind.ANY && readsStored(f.term(), storedAt.keySet(), new HashSet<>())) {
        return "a loop's || term reads an array the loop writes";
      }
    }
    for (Expr u : uses) {
      for (Expr phi : reduced) {
        if (u.dependsOn(phi)) {
          return "a loop uses " + ((Expr.Var) phi).name() + " before the loop ends";
        }
      }
      String why = checkReads(u, l.index(), storedAt, new HashSet<>());
      if (why != null) {
        return why;
      }
    }
    return null;
  }

  private static Fold fold(Stmt.Carried c) {
    Expr next = c.next();
    Expr phi = c.phi();
    if (next == phi) {
      return new Fold(c, FoldKind.NONE, null);
    }
    Expr term = null;
    FoldKind kind = null;
    if (next instanceof Expr.Call call && (call.fn() == MathFn.MAX || call.fn() == MathFn.MIN)
        && call.type() != ScalarType.BOOL) {
      Expr a = call.args().get(0);
      Expr b = call.args().get(1);
      term = a == phi ? b : b == phi ? a : null;
      kind = call.fn() == MathFn.MAX ? FoldKind.MAX : FoldKind.MIN;
    } else if (next instanceof Expr.Binary b && b.op() == BinaryOp.LOR && phi.type() == ScalarType.BOOL) {
      term = b.left() == phi ? b.right() : b.right() == phi ? b.left() : null;
      kind = FoldKind.ANY;
    } else if (next instanceof Expr.Binary b && b.op() == BinaryOp.ADD && b.type().isNumeric()) {
      term = b.left() == phi ? b.right() : b.right() == phi ? b.left() : null;
      kind = FoldKind.SUM;
    } else if (next instanceof Expr.Binary b && b.op() == BinaryOp.SUB && b.type().isNumeric() && b.left() == phi) {
      term = b.right();
      kind = FoldKind.DIFFERENCE;
    }
    if (term == null || term.dependsOn(phi)) {
      return null;
    }
    return new Fold(c, kind, term);
  }

  /**
   * The stride of {@code index} in {@code k}: ±1, or 0 when it does not depend on {@code k}; any
   * other number (not affine, another stride) is reported as 2.
   */
  private static int stride(Expr index, Expr.Var k) {
    if (!index.dependsOn(k)) {
      return 0;
    }
    Affine a = AffineAnalysis.affine(index);
    if (a == null) {
      return 2;
    }
    Poly c = a.coefficient(k.name());
    return c.equals(Poly.ONE) ? 1 : c.equals(Poly.ONE.negate()) ? -1 : 2;
  }

  /** Why a read in {@code e} keeps the loop from being shared, or null. */
  private static String checkReads(Expr e, Expr.Var k, Map<Param.Array, Set<Expr>> storedAt, Set<Expr> seen) {
    if (!seen.add(e)) {
      return null;
    }
    if (e instanceof Expr.Load load) {
      int stride = stride(load.index(), k);
      if (stride == 2) {
        return "a read of " + load.array().name() + " is not unit-stride in " + k.name();
      }
      Set<Expr> at = storedAt.get(load.array());
      if (at != null && !at.contains(load.index())) {
        return "a loop reads " + load.array().name() + " away from the element it writes";
      }
    }
    for (Expr o : e.operands()) {
      String why = checkReads(o, k, storedAt, seen);
      if (why != null) {
        return why;
      }
    }
    return null;
  }

  private static boolean readsStored(Expr e, Set<Param.Array> stored, Set<Expr> seen) {
    if (!seen.add(e)) {
      return false;
    }
    if (e instanceof Expr.Load load && stored.contains(load.array())) {
      return true;
    }
    for (Expr o : e.operands()) {
      if (readsStored(o, stored, seen)) {
        return true;
      }
    }
    return false;
  }


}
