package dev.kiln.processor.ir.transform;

import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.analysis.LaneNest;
import java.util.ArrayList;
import java.util.List;

/**
 * Rewrites each {@link LaneNest} whose totals are sums of sums ({@code s += p} of {@code p += t}
 * from 0) into the one loop over its terms, {@code for (k = 0; k < hi; k++) s += t}: the same sum
 * in another order. For targets that add a sum in their own order anyway (CUDA's row kernels share
 * a loop's iterations among a block's threads, "Numerics" in LANGUAGE.md), which then see a loop
 * they know. Never for the CPU, whose kernels keep the source's order.
 */
public final class LaneNestFlattening {
  private LaneNestFlattening() {}

  /** {@code op} with its top-level lane nests of sums flattened; {@code op} itself when it has none. */
  public static OperatorIr.Grid apply(OperatorIr.Grid op) {
    ExprFactory f = new ExprFactory();
    List<Stmt> body = new ArrayList<>();
    boolean changed = false;
    for (Stmt s : op.body()) {
      Stmt.Loop flat = s instanceof Stmt.Loop l ? flatten(f, l) : null;
      changed |= flat != null;
      body.add(flat != null ? flat : s);
    }
    return changed ? op.withBody(body) : op;
  }

  /** The nest {@code l} as one loop, or null where it is not a lane nest of sums. */
  static Stmt.Loop flatten(ExprFactory f, Stmt.Loop l) {
    LaneNest n = LaneNest.match(l);
    if (n == null) {
      return null;
    }
    Stmt.Loop in = n.inner();
    List<Stmt.Carried> carried = new ArrayList<>();
    for (Stmt.Carried total : l.carried()) {
      Stmt.Carried partial = n.partials().get(total);
      Expr.Binary outer = (Expr.Binary) total.next();
      Expr term = sumTerm(partial);
      if (outer.op() != BinaryOp.ADD || term == null) {
        return null;
      }
      carried.add(total.with(total.phi(), total.init(), f.binary(BinaryOp.ADD, total.phi(), term, in.id()),
          total.result()));
    }
    return new Stmt.Loop(in.id(), in.index(), l.lo(), in.hi(), 1, in.guard(), carried, in.body(), in.origin());
  }

  /** The term {@code t} of a partial {@code p = p + t} (or {@code t + p}) from ±0, else null. */
  private static Expr sumTerm(Stmt.Carried p) {
    if (!(p.init() instanceof Expr.Const c) || c.floatingValue() != 0 || !(p.next() instanceof Expr.Binary b)
        || b.op() != BinaryOp.ADD) {
      return null;
    }
    Expr t = b.left() == p.phi() ? b.right() : b.right() == p.phi() ? b.left() : null;
    return t == null || t.dependsOn(p.phi()) ? null : t;
  }
}
