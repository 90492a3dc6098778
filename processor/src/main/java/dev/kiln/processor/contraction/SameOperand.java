package dev.kiln.processor.contraction;

import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.GridDim;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.analysis.ExprEquivalence;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Whether a prologue about to be made computes what an earlier prologue already wrote: the same
 * grid extents in the same order and the same stored expression, each grid variable standing for
 * the earlier one at its position (attention's {@code dk} operand is {@code dq}'s, the loop index
 * and the row exchanged). The two come from different factories, so they are compared by
 * structure ({@link ExprEquivalence}).
 */
final class SameOperand {
  private SameOperand() {}

  /** Whether storing {@code value} over {@code grid} writes the floats {@code earlier} wrote. */
  static boolean as(OperatorIr.Grid earlier, List<GridDim> grid, Expr value) {
    if (earlier.grid().size() != grid.size() || earlier.body().size() != 1
        || !(earlier.body().get(0) instanceof Stmt.Store store)) {
      return false;
    }
    Map<Expr.Var, Expr.Var> vars = new HashMap<>();
    for (int i = 0; i < grid.size(); i++) {
      if (!grid.get(i).size().equals(earlier.grid().get(i).size())) {
        return false;
      }
      vars.put(grid.get(i).var(), earlier.grid().get(i).var());
    }
    return ExprEquivalence.same(value, store.value(), vars);
  }
}
