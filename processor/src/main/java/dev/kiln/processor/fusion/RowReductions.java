package dev.kiln.processor.fusion;

import dev.kiln.processor.ir.analysis.Affine;
import dev.kiln.processor.ir.analysis.AffineAnalysis;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.MathFn;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.StmtWalk;
import dev.kiln.processor.ir.transform.ExprMapper;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntSupplier;

/**
 * A {@code @Reduce} kernel whose every accumulation goes to an element that some of its grid
 * dimensions choose, rewritten so that one worker owns each element: by rows, {@code s[b] += e}
 * over workers {@code (b, k)}, or down columns, {@code s[n] += e} over workers {@code (b, n)}. The
 * other dimensions become sequential loops (as in {@link Group#demotedTo}), in the grid's order,
 * that carry the element's value, starting from what the array holds and adding the terms in the
 * order plain Java adds them, and the worker stores the total after the loops. The kernel no
 * longer reduces across workers, so a later call that reads the totals (an epilogue, or a per-row
 * pass that divides by them) can join it: a reduction followed by elementwise work is one kernel.
 *
 * <p>Down columns the loops walk memory with a stride, so that form is taken only where the kernel
 * is nothing but its sums: then the CPU's vector lanes run the loops rows outermost, a block of
 * columns at a time ({@code ColumnLoops}), and a CUDA warp's threads read adjacent columns.
 */
final class RowReductions {
  private RowReductions() {}

  /**
   * {@code g} with its reductions by rows carried by one worker each, for a consumer whose grid
   * extents are {@code consumer}; null when {@code g}'s accumulations are not all reductions by
   * rows that the consumer's grid begins with.
   */
  static Group owned(Group g, List<Poly> consumer, ExprFactory f, Map<String, Param.Scalar> dims, IntSupplier loopIds,
      java.util.function.Predicate<Param.Array> zeroed) {
    if (!g.finish.isEmpty()) {
      return null; // its totals are over all workers, and calls already run after them
    }
    List<Stmt> sums = new ArrayList<>();
    for (Stmt s : g.body) {
      if (StmtWalk.reduces(s)) {
        sums.add(s);
      } else if (s instanceof Stmt.Loop l && Group.accumulates(l.body())) {
        return null; // accumulated inside a sequential loop of the worker: not this shape
      }
    }
    if (sums.isEmpty()) {
      return null;
    }
    // every accumulation by the same grid dimensions (reductions by different ones are left as they are)
    List<Integer> kept = keptDims(StmtWalk.index(sums.get(0)), g);
    Set<Param.Array> arrays = new HashSet<>();
    for (Stmt a : sums) {
      if (kept.isEmpty() || !kept.equals(keptDims(StmtWalk.index(a), g))) {
        return null;
      }
      for (Param.Array array : StmtWalk.arraysWritten(a)) {
        if (!arrays.add(array) || reads(g.body, array)) {
          return null;
        }
      }
    }
    int keep = kept.size();
    List<Poly> keptExtents = new ArrayList<>();
    kept.forEach(k -> keptExtents.add(g.extents.get(k)));
    if (keep >= g.grid.size() || consumer.size() < keep || !consumer.subList(0, keep).equals(keptExtents)) {
      return null;
    }
    if (kept.get(keep - 1) != keep - 1 && sums.size() != g.body.size()) {
      // down columns, a worker's loops walk memory with a stride: taken only where they carry
      // nothing but the sums, so the CPU's lanes can run them rows outermost (ColumnLoops)
      return null;
    }
    Group demoted = g.demotedTo(kept, f, dims, loopIds);
    List<Stmt.Loop> nest = new ArrayList<>();
    List<Stmt> inner = demoted.body;
    while (inner.size() == 1 && inner.get(0) instanceof Stmt.Loop l && nest.size() < g.grid.size() - keep) {
      nest.add(l);
      inner = l.body();
    }
    List<Stmt> mapped = new ArrayList<>();
    for (Stmt s : inner) {
      if (StmtWalk.reduces(s)) {
        mapped.add(s);
      }
    }
    List<Stmt> top = new ArrayList<>();
    List<Stmt> body = carry(nest, 0, inner, sums, mapped, new ArrayList<>(), f, top, zeroed);
    demoted.body.clear();
    demoted.body.addAll(body);
    demoted.body.addAll(top);
    demoted.reduces = false;
    return demoted;
  }

  /**
   * The grid dimensions (ascending) that {@code element} is a row-major index of: its affine form
   * is a constant plus those variables times their row-major strides, so each worker of those
   * dimensions owns one element. Leading dimensions make a reduction by rows ({@code s[b] += e}
   * over workers {@code (b, k)}), others one down columns ({@code s[n] += e} over {@code (b, n)}).
   * Empty when it is not such an index.
   */
  private static List<Integer> keptDims(Expr element, Group g) {
    Affine index = AffineAnalysis.affine(element);
    if (index == null) {
      return List.of();
    }
    List<Integer> kept = new ArrayList<>();
    for (int k = 0; k < g.grid.size(); k++) {
      if (index.coefficients().containsKey(g.grid.get(k).name())) {
        kept.add(k);
      }
    }
    if (index.coefficients().size() != kept.size()) {
      return List.of();
    }
    Poly stride = Poly.ONE;
    for (int j = kept.size() - 1; j >= 0; j--) {
      if (!index.coefficient(g.grid.get(kept.get(j)).name()).equals(stride)) {
        return List.of();
      }
      stride = stride.multiply(g.extents.get(kept.get(j)));
    }
    return kept;
  }

  /**
   * The statements of loop level {@code level} of {@code nest} and below, each accumulation
   * replaced by values carried through every level (one an array it updates: a user monoid's
   * record is one a component); the stores of the totals go to {@code top} once the outermost
   * level is built.
   *
   * @param sums the accumulations as the kernel wrote them (their indices use only the grid
   *     dimensions kept, so the worker loads and stores the element outside the loops)
   * @param mapped the same accumulations inside the loops (their terms and guards use the loops' variables)
   * @param outer the carried values of the levels outside, one an array of the accumulations in order
   */
  private static List<Stmt> carry(List<Stmt.Loop> nest, int level, List<Stmt> inner, List<Stmt> sums,
      List<Stmt> mapped, List<Expr.Var> outer, ExprFactory f, List<Stmt> top,
      java.util.function.Predicate<Param.Array> zeroed) {
    if (level == nest.size()) {
      return without(inner);
    }
    Stmt.Loop l = nest.get(level);
    List<Expr.Var> phis = new ArrayList<>();
    for (Stmt a : sums) {
      for (Param.Array array : StmtWalk.arraysWritten(a)) {
        phis.add(f.newVar(array.name(), array.elementType(), Expr.VarKind.CARRIED));
      }
    }
    List<Stmt> body = carry(nest, level + 1, inner, sums, mapped, phis, f, top, zeroed);
    List<Expr> nexts = new ArrayList<>();
    if (level == nest.size() - 1) {
      int at = 0;
      for (int s = 0; s < sums.size(); s++) {
        int n = StmtWalk.arraysWritten(sums.get(s)).size();
        nexts.addAll(step(mapped.get(s), phis.subList(at, at + n), f));
        at += n;
      }
    } else {
      for (int s = 0; s < phis.size(); s++) {
        nexts.add(innerResult(body, s, phis.size()));
      }
    }
    List<Stmt.Carried> carried = new ArrayList<>(l.carried());
    List<Expr.Var> results = new ArrayList<>();
    int slot = 0;
    for (Stmt a : sums) {
      for (Param.Array array : StmtWalk.arraysWritten(a)) {
        Expr init = level > 0 ? outer.get(slot)
            : zeroed.test(array) ? f.constant(array.elementType(), 0)
            : f.load(array, StmtWalk.index(a), f.trueValue(), 0);
        Expr.Var result = f.newVar(array.name(), array.elementType(), Expr.VarKind.LOOP_RESULT);
        carried.add(new Stmt.Carried(phis.get(slot), init, nexts.get(slot), result));
        results.add(result);
        slot++;
      }
    }
    Stmt.Loop rebuilt = new Stmt.Loop(l.id(), l.index(), l.lo(), l.hi(), l.step(), l.guard(), carried, body, l.origin());
    if (level == 0) {
      slot = 0;
      for (Stmt a : sums) {
        for (Param.Array array : StmtWalk.arraysWritten(a)) {
          top.add(new Stmt.Store(array, StmtWalk.index(a), results.get(slot++), f.trueValue(), a.origin()));
        }
      }
    }
    return List.of(rebuilt);
  }

  /** The result of carried value {@code s} after the loop nested directly in {@code body}. */
  private static Expr innerResult(List<Stmt> body, int s, int count) {
    Stmt.Loop inner = (Stmt.Loop) body.get(0);
    List<Stmt.Carried> c = inner.carried();
    return c.get(c.size() - count + s).result();
  }

  /**
   * One term added where its guard holds: the accumulation's operator on the carried value and the
   * term, or the monoid's method on the carried record and the contribution (its inlined body with
   * the carried values as {@code this} and the contribution as the argument).
   */
  private static List<Expr> step(Stmt s, List<Expr.Var> phis, ExprFactory f) {
    if (s instanceof Stmt.Combine c) {
      Map<Expr.Var, Expr> operands = new java.util.HashMap<>();
      for (int i = 0; i < phis.size(); i++) {
        operands.put(c.monoid().left().get(i), phis.get(i));
        operands.put(c.monoid().right().get(i), c.values().get(i));
      }
      ExprMapper inline = new ExprMapper(f, operands, f::scalar, a -> a, scope -> scope, null, null);
      List<Expr> out = new ArrayList<>();
      for (int i = 0; i < phis.size(); i++) {
        Expr combined = inline.map(c.monoid().combined().get(i));
        out.add(c.guard() instanceof Expr.Const k && k.isTrue() ? combined : f.select(c.guard(), combined, phis.get(i)));
      }
      return out;
    }
    Stmt.Accumulate a = (Stmt.Accumulate) s;
    Expr.Var phi = phis.get(0);
    Expr v = a.value();
    Expr combined = switch (a.op()) {
      case SUM -> f.binary(BinaryOp.ADD, phi, v, -1);
      case PRODUCT -> f.binary(BinaryOp.MUL, phi, v, -1);
      case MAX -> f.call(MathFn.MAX, phi.type(), List.of(phi, v));
      case MIN -> f.call(MathFn.MIN, phi.type(), List.of(phi, v));
    };
    return List.of(a.guard() instanceof Expr.Const c && c.isTrue() ? combined : f.select(a.guard(), combined, phi));
  }

  private static List<Stmt> without(List<Stmt> stmts) {
    List<Stmt> out = new ArrayList<>();
    for (Stmt s : stmts) {
      if (!StmtWalk.reduces(s)) {
        out.add(s);
      }
    }
    return out;
  }

  private static boolean reads(List<Stmt> body, Param.Array a) {
    Set<Param.Array> loaded = new java.util.LinkedHashSet<>();
    Merger.collectLoads(body, loaded);
    return loaded.contains(a);
  }
}
