package dev.kiln.processor.codegen.cpu;

import dev.kiln.processor.ir.ArrayRole;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Poly;
import java.util.function.Predicate;

/**
 * The loads of a grid kernel that read inside their array for every size and every worker: of an
 * input (whose length its launcher checks against its shape before any worker runs), at a
 * grid variable whose extent is at most the array's length ({@code vSaved[b]} of a {@code [B]}
 * array in a grid over {@code b < B}), or at a constant inside the length at every size. Such a
 * load cannot throw, so {@link LoopInvariants} may compute it before a loop that might run no
 * iteration.
 */
final class SafeLoads {
  private SafeLoads() {}

  /** Whether a load of {@code op} provably stays inside its array. */
  static Predicate<Expr.Load> of(OperatorIr.Grid op) {
    IndexRanges ranges = IndexRanges.ofGrid(op, 0);
    return load -> {
      if (load.array().role() != ArrayRole.IN) {
        return false; // a scratch row is allocated per worker, not at its shape's length
      }
      Poly length = load.array().shape().length();
      if (load.index() instanceof Expr.Var v) {
        return ranges.within(v, length);
      }
      return load.index() instanceof Expr.Const c && c.type().isIntegral() && c.integralValue() >= 0
          && ranges.atLeastZero(length.subtract(Poly.constant(c.integralValue() + 1)));
    };
  }
}
