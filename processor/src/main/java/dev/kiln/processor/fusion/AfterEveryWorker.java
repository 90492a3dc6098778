package dev.kiln.processor.fusion;

import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.ProductLoops;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.StmtWalk;
import dev.kiln.processor.ir.analysis.Affine;
import dev.kiln.processor.ir.analysis.AffineAnalysis;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A call with no grid that reads a {@code @Reduce} result over all the workers of the kernel before
 * it (a total, then its mean or square root), joined to that kernel as statements that run once
 * after every worker has added to it ({@link Group#finish}): the CPU kernel runs them on the
 * calling thread once the chunks' partial totals are combined, the CUDA kernel in the thread that
 * stores the total (or that folds the segments' totals). A reduction over all workers followed by
 * its scalar epilogue is one kernel.
 *
 * <p>Taken where every accumulation of the kernel goes to one element that no worker chooses (a
 * constant index: {@code s[0] += e}, or a user monoid's record {@code r[0] = r[0].add(e)} in arrays
 * of one record, whose partial records fold in one thread on CUDA), no worker reads what the kernel
 * accumulates, the call reads
 * from the kernel only its totals or what earlier such calls wrote, and the call has no loop and
 * reads and writes only at constant indices inside arrays of constant length. A call with a grid
 * of its own (subtracting the mean from every element) still starts a new kernel: each of its
 * workers needs the complete total, which only a barrier across the whole grid gives.
 */
final class AfterEveryWorker {
  private AfterEveryWorker() {}

  /** The call joined after every worker of {@code g}, or null when this rule does not apply. */
  static MergeAttempt attempt(Group g, CallInstance c, Set<Param.Array> fromG) {
    if (fromG.isEmpty() || !c.extents().isEmpty() || Group.accumulates(c.body()) || ProductLoops.any(g.body)) {
      return null;
    }
    if (!scalarAccesses(c.body())) {
      return null;
    }
    Map<Param.Array, Long> totals = new LinkedHashMap<>();
    Set<Param.Array> stored = new LinkedHashSet<>();
    if (!totals(g.body, totals, stored) || totals.isEmpty()) {
      return null;
    }
    if (StmtWalk.firstCombine(g.body) != null && !totals.keySet().stream().allMatch(a -> a.shape().hasLength(1))) {
      // a user monoid's partial records fold in a kernel of their own on CUDA, one thread an element:
      // only with a single element is that one thread, which then runs the statements after it
      return null;
    }
    Set<Param.Array> readByWorkers = new LinkedHashSet<>();
    Merger.collectLoads(g.body, readByWorkers);
    for (Param.Array t : totals.keySet()) {
      if (stored.contains(t) || readByWorkers.contains(t)) {
        return null;
      }
    }
    Set<Param.Array> finished = Group.arraysWritten(g.finish);
    Set<Param.Array> kernelUses = new LinkedHashSet<>();
    Merger.collectLoads(g.everything(), kernelUses);
    for (Param.Array w : Group.arraysWritten(c.body())) {
      if (kernelUses.contains(w) || g.written.contains(w)) {
        return null;
      }
    }
    Map<Param.Array, String> reasons = new LinkedHashMap<>();
    for (Param.Array t : fromG) {
      if (totals.containsKey(t)) {
        reasons.put(t, "one kernel: '" + t.name() + "' is a @Reduce over all its workers, so " + c.id()
            + " runs once after every worker has added to it and the partial totals are combined");
      } else if (finished.contains(t)) {
        reasons.put(t, "one kernel: " + c.id() + " runs after every worker too, after the call that wrote '" + t.name() + "'");
      } else {
        return null; // stored by the workers: complete only after all of them, read where no barrier is
      }
    }
    return MergeAttempt.afterEveryWorker(c.body(), reasons);
  }

  /**
   * Collects each accumulated array (a user monoid's record: each component's) with its one
   * constant index, and the arrays stored; false when an accumulation or combine has another index
   * (one a worker or a loop chooses, or two different ones).
   */
  private static boolean totals(List<Stmt> body, Map<Param.Array, Long> totals, Set<Param.Array> stored) {
    for (Stmt s : body) {
      if (s instanceof Stmt.Loop l) {
        if (!totals(l.body(), totals, stored)) {
          return false;
        }
      } else if (s instanceof Stmt.Combine c) {
        Long at = constant(c.index());
        for (Param.Array a : c.arrays()) {
          if (at == null || !at.equals(totals.getOrDefault(a, at))) {
            return false;
          }
          totals.put(a, at);
        }
      } else if (s instanceof Stmt.Accumulate a) {
        Long at = constant(a.index());
        if (at == null || !at.equals(totals.getOrDefault(a.array(), at))) {
          return false;
        }
        totals.put(a.array(), at);
      } else if (s instanceof Stmt.Store st) {
        stored.add(st.array());
      }
    }
    return true;
  }

  /**
   * Whether every load and store of {@code body} is at a constant index inside an array of constant
   * length (a scalar epilogue: {@code out[0] = s[0] / N}), so that the device needs no bounds check
   * for it.
   */
  private static boolean scalarAccesses(List<Stmt> body) {
    for (Stmt s : body) {
      if (s instanceof Stmt.Loop) {
        return false;
      }
      for (Expr.Load l : StmtWalk.loads(StmtWalk.exprs(s))) {
        if (!inside(l.array(), l.index())) {
          return false;
        }
      }
      if (s instanceof Stmt.Store st && !inside(st.array(), st.index())) {
        return false;
      }
    }
    return true;
  }

  private static boolean inside(Param.Array a, Expr index) {
    Long at = constant(index);
    return at != null && a.shape().length().isConstant() && at >= 0 && at < a.shape().length().constantTerm();
  }

  private static Long constant(Expr index) {
    Affine a = AffineAnalysis.affine(index);
    return a == null || !a.isConstant() || !a.constantPart().isConstant() ? null : a.constantPart().constantTerm();
  }
}
