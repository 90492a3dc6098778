package dev.kiln.processor.codegen.cpu;

import dev.kiln.processor.check.InPlace;
import dev.kiln.processor.ir.ArrayRole;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.StmtWalk;
import java.util.ArrayList;
import java.util.List;

/**
 * The inputs of a grid operator that every outer index reads (layer norm's {@code gamma} and {@code
 * beta}), which a launcher may hand to its SIMD form as copies in arrays of known alignment
 * ({@code dev.kiln.runtime.simd.AlignedCopies}). A copy is a longer array than its input, so only
 * where the copy's results are provably the input's does a launcher make one: a float array the
 * operator only reads ({@link ArrayRole#IN}) and no output may alias ({@link InPlace}), of rank 1,
 * whose every load is at a grid or loop variable other than the outermost grid variable, and
 * whose variable provably stays inside the array's length: from a non-negative start, a positive
 * step, up to a bound at most the length for every size. Then no load of the copy reads past the
 * input's floats, and no load the plain method would throw at is reached.
 */
final class RowInvariantInputs {
  private RowInvariantInputs() {}

  /** The inputs of {@code op} a launcher may copy, in parameter order; empty for none. */
  static List<Param.Array> of(OperatorIr.Grid op) {
    if (op.grid().isEmpty()) {
      return List.of();
    }
    IndexRanges ranges = IndexRanges.ofGrid(op, 1); // (not the outermost grid variable: a row's own index)
    ranges.loops(op.body());
    List<Expr> exprs = new ArrayList<>();
    op.body().forEach(s -> exprs.addAll(StmtWalk.exprs(s)));
    List<Expr.Load> loads = StmtWalk.loads(exprs);

    List<Param.Array> out = new ArrayList<>();
    for (Param.Array a : op.arrays()) {
      if (a.role() != ArrayRole.IN || a.elementType() != ScalarType.FLOAT || a.shape().rank() != 1
          || aliasable(op, a)) {
        continue;
      }
      boolean read = false;
      boolean inside = true;
      for (Expr.Load l : loads) {
        if (l.array().name().equals(a.name())) {
          read = true;
          inside &= l.index() instanceof Expr.Var v && ranges.within(v, a.shape().length());
        }
      }
      if (read && inside) {
        out.add(a);
      }
    }
    return out;
  }

  private static boolean aliasable(OperatorIr op, Param.Array in) {
    for (Param.Array out : op.arrays()) {
      if (out != in && out.role() != ArrayRole.IN && InPlace.safe(op, out, in)) {
        return true;
      }
    }
    return false;
  }
}
