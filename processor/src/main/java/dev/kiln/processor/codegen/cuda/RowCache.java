package dev.kiln.processor.codegen.cuda;

import dev.kiln.processor.ir.analysis.Affine;
import dev.kiln.processor.ir.analysis.AffineAnalysis;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.GridDim;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.StmtWalk;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The row a row kernel keeps in shared memory: softmax reads its row three times (the maximum, the
 * sum of exponentials, the outputs), layer norm three times, their gradients five; from the second
 * time on the block reads the copy it made the first time instead of global memory. The array
 * cached is one the kernel never writes, read in at least two of the shared loops at {@code base +
 * k} ({@code k} the loop's variable, {@code base} the same in every loop and free of loop
 * variables), unconditionally ({@code guard} true, as the source reads it), in loops with the same
 * bounds, step 1 and no guard of their own; of several such arrays, the one read in the most loops.
 *
 * <p>The cache is a static {@code __shared__} array of {@value #BYTES} bytes: a row longer than that
 * is read from global memory every time, as without a cache (the kernel checks the row's length at
 * run time; the branch is the same for every thread). The first loop fills it, each thread the
 * elements it reads, and the barrier after every shared loop ({@link RowKernelWriter}) makes them
 * visible to the later loops.
 *
 * @param loads the cached load in each loop that reads it
 */
record RowCache(Param.Array array, Stmt.Loop fill, Map<Stmt.Loop, Expr.Load> loads, int capacity) {
  /** The cache's size in bytes: with the block's reduction arrays, within a block's 48 KB of static shared memory. */
  static final int BYTES = 32 * 1024;

  /**
   * The cache's size in bytes in a row kernel's short-row form ({@link RowKernelWriter#SHORT_THREADS}):
   * small enough that many blocks fit a multiprocessor.
   */
  static final int SHORT_BYTES = 8 * 1024;

  /** The same cache holding {@code bytes} bytes. */
  RowCache withBytes(int bytes) {
    return new RowCache(array, fill, loads, bytes / (BYTES / capacity));
  }

  /** The cache of a row kernel's worker, or null when no array qualifies. */
  static RowCache plan(OperatorIr.Grid op, SharedLoopPlan.Plan plan) {
    if (plan.layout() != SharedLoopPlan.Layout.ROWS) {
      return null;
    }
    Set<String> written = StmtWalk.writtenArrays(op.body());
    Set<String> gridVars = new HashSet<>();
    for (GridDim g : op.grid()) {
      gridVars.add(g.var().name());
    }
    List<Stmt.Loop> shared = new ArrayList<>();
    for (Stmt s : op.body()) {
      if (s instanceof Stmt.Loop l && plan.loops().containsKey(l) && l.step() == 1
          && l.guard() instanceof Expr.Const c && c.isTrue()) {
        shared.add(l);
      }
    }
    RowCache best = null;
    for (Param.Array a : op.arrays()) {
      int bytes = a.elementType().isNarrow() ? 0 : a.elementType().bytes(); // a narrow element is read as an int: not cached
      if (bytes == 0 || written.contains(a.name())) {
        continue;
      }
      // loops grouped by (base, lo, hi): each group's loads all read base + k
      Map<List<Object>, Map<Stmt.Loop, Expr.Load>> groups = new LinkedHashMap<>();
      for (Stmt.Loop l : shared) {
        for (Expr.Load load : loads(l, a)) {
          Affine base = base(load, l, gridVars);
          if (base != null) {
            groups.computeIfAbsent(List.of(base, l.lo(), l.hi()), k -> new LinkedHashMap<>()).putIfAbsent(l, load);
          }
        }
      }
      for (Map<Stmt.Loop, Expr.Load> g : groups.values()) {
        if (g.size() >= 2 && (best == null || g.size() > best.loads().size())) {
          Map<Stmt.Loop, Expr.Load> byLoop = new IdentityHashMap<>(g);
          best = new RowCache(a, g.keySet().iterator().next(), byLoop, BYTES / bytes);
        }
      }
    }
    return best;
  }

  /** {@code index - k} of a load that reads {@code base + k} with {@code base} free of loop variables; else null. */
  private static Affine base(Expr.Load load, Stmt.Loop l, Set<String> gridVars) {
    if (load.scope() != l.id() || !(load.guard() instanceof Expr.Const c && c.isTrue())) {
      return null;
    }
    Affine index = AffineAnalysis.affine(load.index());
    if (index == null) {
      return null;
    }
    Poly step = index.coefficient(l.index().name());
    if (!step.isConstant() || step.constantTerm() != 1) {
      return null;
    }
    Affine base = index.subtract(Affine.variable(l.index().name()));
    return gridVars.containsAll(base.coefficients().keySet()) ? base : null;
  }

  /** The loads of {@code a} in the loop's own statements and carried values (not in loops nested in it). */
  private static List<Expr.Load> loads(Stmt.Loop l, Param.Array a) {
    List<Expr> roots = new ArrayList<>();
    for (Stmt s : l.body()) {
      if (!(s instanceof Stmt.Loop)) {
        roots.addAll(StmtWalk.exprs(s));
      }
    }
    l.carried().forEach(c -> roots.add(c.next()));
    return StmtWalk.loadsOf(roots, a.name());
  }
}
