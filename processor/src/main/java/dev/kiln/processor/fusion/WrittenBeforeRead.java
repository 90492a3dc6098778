package dev.kiln.processor.fusion;

import dev.kiln.processor.ir.CompositeIr;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.StmtWalk;
import dev.kiln.processor.ir.analysis.Affine;
import dev.kiln.processor.ir.analysis.AffineAnalysis;
import dev.kiln.processor.ir.analysis.IndexTerms;
import dev.kiln.processor.ir.analysis.Injectivity;
import dev.kiln.processor.ir.analysis.Term;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The temporaries of a composite's CPU form that need no zero-filling: the first kernel that uses
 * one writes every element of it before any kernel reads it. A derived gradient's {@code B x N}
 * adjoint that one kernel stores in full and the next sums is such a temporary; zero-filling it
 * costs a pass over the array that nothing reads.
 *
 * <p>The proof is deliberately narrow. The first kernel (in the plan's order) that names the
 * temporary must not read it and must store it exactly once in its body, unconditionally, inside
 * loops whose guards always hold, whose step is 1 and whose bounds are sizes; the store's index
 * must be affine in every grid and loop variable around it, each with a coefficient of provable
 * sign, and provably injective over all of them together ({@link Injectivity}); and the number of
 * (worker, iteration) points, the product of the grid's sizes and the loops' trip counts, must
 * equal the temporary's length. Then the points write that many different elements of an array
 * that long, and a kernel that runs to its end (an index out of bounds throws) has written them
 * all. Anything else is zero-filled, as {@code new} would.
 *
 * <p>The proof takes every size to be at least 1 (as {@link Injectivity} does: a stride {@code N}
 * is not 0), so the launcher still zero-fills when any {@code @Dim} of the call is 0.
 */
public final class WrittenBeforeRead {
  private WrittenBeforeRead() {}

  /** The names of {@code plan}'s CPU temporaries whose first kernel writes them in full before reading. */
  public static Set<String> onCpu(FusionPlan plan) {
    Set<String> out = new HashSet<>();
    for (CompositeIr.Temp t : plan.allocatedOnCpu()) {
      for (FusionPlan.Kernel k : plan.kernels()) {
        OperatorIr.Grid op = k.cpu();
        if (op.arrays().stream().noneMatch(a -> a.name().equals(t.name()))) {
          continue;
        }
        Map<String, Poly> derived = new java.util.HashMap<>();
        k.derived().forEach(d -> derived.put(d.param().name(), d.value()));
        if (writesAll(op, t.name(), t.length(), derived)) {
          out.add(t.name());
        }
        break;
      }
    }
    return out;
  }

  /**
   * Whether {@code op} writes every element of the array {@code name} ({@code length} long, in the
   * composite's sizes) and reads none; {@code derived}: the kernel's derived sizes ({@code extent0 =
   * 4*H}) in the composite's.
   */
  static boolean writesAll(OperatorIr.Grid op, String name, Poly length, Map<String, Poly> derived) {
    List<Expr> all = new ArrayList<>();
    for (Stmt s : op.body()) {
      all.addAll(StmtWalk.exprs(s));
    }
    if (!StmtWalk.loadsOf(all, name).isEmpty()) {
      return false;
    }
    List<Stmt.Store> stores = new ArrayList<>();
    List<List<Stmt.Loop>> arounds = new ArrayList<>();
    if (!collect(op.body(), name, new ArrayList<>(), stores, arounds) || stores.size() != 1) {
      return false;
    }
    Stmt.Store store = stores.get(0);
    if (!Recompute.isTrue(store.guard())) {
      return false;
    }
    Map<String, Poly[]> ranges = IndexTerms.gridRanges(op);
    for (Stmt.Loop l : arounds.get(0)) {
      if (l.step() != 1 || !Recompute.isTrue(l.guard())) {
        return false;
      }
      IndexTerms.addLoopRange(l, ranges);
      if (!ranges.containsKey(l.index().name())) {
        return false;
      }
    }
    Set<String> dims = new HashSet<>();
    op.dims().forEach(d -> dims.add(d.name()));
    Poly points = Poly.ONE;
    for (Map.Entry<String, Poly[]> r : ranges.entrySet()) {
      r.setValue(new Poly[] {r.getValue()[0].substitute(derived), r.getValue()[1].substitute(derived)});
      Poly extent = r.getValue()[1].subtract(r.getValue()[0]);
      if (!extent.provablyNonNegative(dims)) {
        return false; // a trip count of hi - lo must not go below 0, where the real count is 0
      }
      points = points.multiply(extent);
    }
    if (!points.equals(length)) {
      return false;
    }
    Affine found = AffineAnalysis.affine(store.index());
    if (found == null || !found.coefficients().keySet().equals(ranges.keySet())) {
      return false; // a variable the index does not move with writes one element more than once
    }
    Affine index = Affine.constant(Poly.ZERO);
    for (Map.Entry<String, Poly> c : found.coefficients().entrySet()) {
      index = index.add(Affine.variable(c.getKey()).scale(c.getValue().substitute(derived)));
    }
    List<Term> terms = IndexTerms.of(index, ranges, ranges.keySet(), dims);
    return terms != null && Injectivity.provable(terms, dims);
  }

  /** The stores into {@code name} and the loops around each; false when it is accumulated or combined into. */
  private static boolean collect(List<Stmt> body, String name, List<Stmt.Loop> around, List<Stmt.Store> stores,
      List<List<Stmt.Loop>> arounds) {
    for (Stmt s : body) {
      if (s instanceof Stmt.Store st && st.array().name().equals(name)) {
        stores.add(st);
        arounds.add(List.copyOf(around));
      } else if (s instanceof Stmt.Accumulate a && a.array().name().equals(name)) {
        return false;
      } else if (s instanceof Stmt.Combine c && c.arrays().stream().anyMatch(a -> a.name().equals(name))) {
        return false;
      } else if (s instanceof Stmt.Loop l) {
        around.add(l);
        boolean ok = collect(l.body(), name, around, stores, arounds);
        around.remove(around.size() - 1);
        if (!ok) {
          return false;
        }
      }
    }
    return true;
  }
}
