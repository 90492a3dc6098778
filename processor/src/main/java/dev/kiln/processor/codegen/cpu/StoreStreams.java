package dev.kiln.processor.codegen.cpu;

import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.StmtWalk;
import dev.kiln.processor.ir.analysis.Affine;
import dev.kiln.processor.ir.analysis.AffineAnalysis;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Row kernels whose stores the lanes form runs as one vector loop each, in the source's order, over
 * a row: a concatenation such as OVL's ({@code out[r, n] = a; out[r, N + n] = a * b}) or a split of
 * rows into halves, where one loop over the row walks one array at two places at once, each place a
 * stream that jumps a row's length at every row. Split, every array is read and written in address
 * order (OVL's kernel, rows of 2x1024 floats: 10-20% faster in a harness, through its launcher a
 * median 6% over 14 alternated JMH pairs; docs/BENCHMARKS.md). A later loop computes its value again, reading the row's inputs a second time
 * from L1, so the split form runs only for rows of at most {@link #MAX_ROW} workers; longer rows run
 * the one loop (their pieces are long streams already, and what a later loop reads again no longer
 * stays in L1: split, rows of 8192 and 65536 floats ran 7-15% slower).
 *
 * <p>Only where the order cannot show: every statement a store (no accumulation, no loop) whose
 * value, index and guard read no array the kernel stores into, and no output that a launcher lets
 * be an input too ({@link AlignedStart#mayRunInPlace}); every element is still stored once with the
 * same value, so the results are the same floats. Not for kernels that call exp, tanh, sigmoid or
 * erf (bound by their math; {@link SimdFission} splits those), nor for workers that walk columns
 * ({@link ColumnLoops}), nor where each array is accessed at one place in a row (two outputs at
 * their inputs' index are streams in address order already: split, such a kernel ran 20-30%
 * slower), nor where computing each store's value apart more than doubles the operations, nor where
 * the split loops and the one loop together would hold more than {@link #MAX_VECTOR_OPS} vector
 * operations.
 */
final class StoreStreams {
  /**
   * The most workers in a row (its innermost grid dimension) for which the stores run as loops of
   * their own: 8 KB a piece; measured on an AMD EPYC (Zen 5, 48 KB of L1) with OVL's kernel at
   * rows of 512, 1024 and 2048 (split faster) and 8192 and 65536 (split slower).
   */
  static final int MAX_ROW = 2048;

  /**
   * The most vector operations (loads and float arithmetic that vary along the row) of the split
   * loops and the one loop together: the kernel's method holds both, and a method past C2's inlining
   * budget leaves its Vector API calls out of line and every vector boxed (the LSTM cell's kernel,
   * about 120 such operations in one method, ran no faster than scalar code: {@link SimdFission}).
   * OVL's kernel has 15.
   */
  static final int MAX_VECTOR_OPS = 64;

  private StoreStreams() {}

  /** The stores of {@code op} to run as a loop each, in order; empty where the kernel keeps one loop. */
  static List<Stmt.Store> pieces(OperatorIr.Grid op) {
    if (op.grid().size() < 2 || op.body().size() < 2 || op.finishes() || !AlignedStart.rewritable(op.body())
        || AlignedStart.mayRunInPlace(op) || AlignedStart.heavy(op.body()) || ColumnLoops.applies(op)) {
      return List.of();
    }
    List<Stmt.Store> stores = new ArrayList<>();
    op.body().forEach(s -> stores.add((Stmt.Store) s)); // rewritable: stores only
    SimdPlan plan = SimdPlan.forLanes(op);
    if (!twoPlacesInARow(stores, plan) || work(stores) > 2 * workTogether(stores)) {
      return List.of();
    }
    int vectorOps = vectorOps(allOf(stores), plan);
    for (Stmt.Store s : stores) {
      vectorOps += vectorOps(StmtWalk.exprs(s), plan);
    }
    return vectorOps <= MAX_VECTOR_OPS ? stores : List.of();
  }

  /** The nodes under {@code roots} that become vector operations: varying along the row, not integers. */
  private static int vectorOps(List<Expr> roots, SimdPlan plan) {
    int n = 0;
    for (Expr e : StmtWalk.nodes(roots)) {
      if (plan.varying(e) && !e.type().isIntegral()) {
        n++;
      }
    }
    return n;
  }

  private static List<Expr> allOf(List<Stmt.Store> stores) {
    List<Expr> all = new ArrayList<>();
    stores.forEach(s -> all.addAll(StmtWalk.exprs(s)));
    return all;
  }

  /** Whether some array is loaded or stored at two different indices that vary along the row. */
  private static boolean twoPlacesInARow(List<Stmt.Store> stores, SimdPlan plan) {
    Map<Param.Array, Set<Object>> places = new HashMap<>();
    List<Expr> read = new ArrayList<>();
    for (Stmt.Store s : stores) {
      place(places, s.array(), s.index(), plan);
      read.addAll(StmtWalk.exprs(s));
    }
    for (Expr.Load l : StmtWalk.loads(read)) {
      place(places, l.array(), l.index(), plan);
    }
    return places.values().stream().anyMatch(p -> p.size() >= 2);
  }

  private static void place(Map<Param.Array, Set<Object>> places, Param.Array array, Expr index, SimdPlan plan) {
    if (plan.varying(index)) {
      Affine affine = AffineAnalysis.affine(index);
      places.computeIfAbsent(array, a -> new HashSet<>()).add(affine != null ? affine : index);
    }
  }

  /** The operations of the stores computed apart: each store's expressions' nodes. */
  private static int work(List<Stmt.Store> stores) {
    int n = 0;
    for (Stmt.Store s : stores) {
      n += StmtWalk.nodes(StmtWalk.exprs(s)).size();
    }
    return n;
  }

  /** The operations of the stores computed together, shared values once. */
  private static int workTogether(List<Stmt.Store> stores) {
    return StmtWalk.nodes(allOf(stores)).size();
  }
}
