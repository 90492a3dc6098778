package dev.kiln.processor.codegen.cpu;

import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.StmtWalk;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A column kernel's loops dealt to the threads: where the workers of a one-dimensional grid each
 * fold several independent loops down their column ({@link ColumnLoops}; layer norm's scale and
 * shift gradients, {@code dgamma[n] = sum over b of adj[b, n]} and {@code dbeta[n] = sum over b of
 * dy[b, n]}), the launcher runs each loop, with the stores that use its results, as a kernel of its
 * own over every column, and gives each thread one of them. Cut by columns, each of two threads read
 * half of every row of both arrays, runs of 4 KB that jump 8 KB, which the hardware's prefetchers
 * follow badly; dealt, each thread reads one array front to back, its rows whole (over 2048x2048 on
 * two threads, in a harness: 0.50-0.54 ms against 0.79-0.84 for the two sums in one pass over halves
 * of the rows, and 0.90-0.98 for a sum a thread in blocks of 1024 columns: the block must be the
 * row, {@link #ROW_BLOCK}).
 *
 * <p>Every loop still folds the same terms in the same order for every column, and every store
 * stores the same value once, so the results are the source's floats. Applies where {@link
 * ScalarColumnLoops} does (both forms of each part take the column interchange) and the worker
 * splits into at least two parts: each part a loop and the stores that use its results (stores
 * that use none go with the first part), no store using the results of two parts, no loop's bounds
 * or initial values using another's results, and no part reading or writing an array that another
 * part writes. Not where the lanes form would split the worker into stages ({@link SimdFission}),
 * nor where the launcher lets an output be an input too ({@link AlignedStart#mayRunInPlace}): a
 * worker may then read its input's element in one loop and write it in a later store, and dealt, the
 * part with the store could write it before another part's loop has read it.
 */
final class DealtLoops {
  /**
   * The most columns a dealt part's block takes ({@link ColumnLoops}): a thread holds a running
   * value of 4 bytes a column a carried value; 8192 columns of one value is 32 KB, within the
   * first-level cache of 48 KB beside the row it reads.
   */
  static final int ROW_BLOCK = 8192;

  /** The most parts: one a thread on machines of a few cores, and a launcher of bounded size. */
  static final int MAX_PARTS = 8;

  private DealtLoops() {}

  /**
   * The parts of {@code op} (each named {@code <op>$part<i>}, with {@code op}'s parameters and
   * grid), in the order of their loops; empty where the kernel is not dealt.
   */
  static List<OperatorIr.Grid> parts(OperatorIr.Grid op) {
    if (op.grid().size() != 1 || op.finishes() || !ScalarColumnLoops.applies(op) || SimdPlan.refusal(op) != null
        || SimdFission.stages(op).size() >= 2 || AlignedStart.mayRunInPlace(op)) {
      return List.of();
    }
    List<Stmt.Loop> loops = new ArrayList<>();
    for (Stmt s : op.body()) {
      if (s instanceof Stmt.Loop l) {
        loops.add(l);
      }
    }
    if (loops.size() < 2 || loops.size() > MAX_PARTS) {
      return List.of();
    }
    List<List<Stmt>> bodies = new ArrayList<>();
    loops.forEach(l -> bodies.add(new ArrayList<>()));
    for (Stmt s : op.body()) {
      // the part of a loop is its own; of a store (ColumnLoops: stores and loops only), the loop whose
      // results it uses, the first where it uses none
      int part = s instanceof Stmt.Loop l ? loops.indexOf(l) : -1;
      for (int i = 0; i < loops.size(); i++) {
        if (i != part && usesResults(s, loops.get(i))) {
          if (part >= 0) {
            return List.of(); // a loop starting from another's result, or a store of two parts' results
          }
          part = i;
        }
      }
      bodies.get(Math.max(part, 0)).add(s);
    }
    for (int i = 0; i < bodies.size(); i++) {
      Set<Param.Array> written = stored(bodies.get(i));
      for (int j = 0; j < bodies.size(); j++) {
        if (j != i && (touches(bodies.get(j), written))) {
          return List.of();
        }
      }
    }
    List<OperatorIr.Grid> parts = new ArrayList<>();
    for (int i = 0; i < bodies.size(); i++) {
      OperatorIr.Grid part = op.withBody(bodies.get(i)).withName(name(op, i));
      if (!ScalarColumnLoops.applies(part) || SimdPlan.refusal(part) != null) {
        return List.of();
      }
      parts.add(part);
    }
    return parts;
  }

  /** The name of {@code op}'s part {@code i}: its SIMD method's. */
  static String name(OperatorIr.Grid op, int i) {
    return op.name() + "$part" + i;
  }

  /** Whether {@code s} (its bounds and initial values, or its value, index and guard) uses a result of {@code l}. */
  private static boolean usesResults(Stmt s, Stmt.Loop l) {
    return StmtWalk.exprs(s).stream().anyMatch(e -> l.carried().stream().anyMatch(c -> e.dependsOn(c.result())));
  }

  private static Set<Param.Array> stored(List<Stmt> body) {
    Set<Param.Array> arrays = new HashSet<>();
    for (Stmt s : body) {
      if (s instanceof Stmt.Store st) {
        arrays.add(st.array());
      }
    }
    return arrays;
  }

  /** Whether {@code body} reads or writes one of {@code arrays}. */
  private static boolean touches(List<Stmt> body, Set<Param.Array> arrays) {
    if (arrays.isEmpty()) {
      return false;
    }
    List<Expr> read = new ArrayList<>();
    for (Stmt s : body) {
      if (s instanceof Stmt.Store st && arrays.contains(st.array())) {
        return true;
      }
      read.addAll(StmtWalk.exprs(s));
    }
    return StmtWalk.loads(read).stream().anyMatch(l -> arrays.contains(l.array()));
  }
}
