package dev.kiln.processor.contraction;

import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.GridDim;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Stmt;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Whether a prologue about to be made computes what an earlier prologue already wrote: the same
 * grid extents in the same order and the same stored expression, each grid variable standing for
 * the earlier one at its position (attention's {@code dk} operand is {@code dq}'s, the loop index
 * and the row exchanged). Expressions are compared by structure, not identity: the two come from
 * different factories.
 */
final class SameOperand {
  private final Map<Expr.Var, Expr.Var> vars = new HashMap<>();
  private final Map<Expr, Expr> matched = new IdentityHashMap<>();

  private SameOperand() {}

  /** Whether storing {@code value} over {@code grid} writes the floats {@code earlier} wrote. */
  static boolean as(OperatorIr.Grid earlier, List<GridDim> grid, Expr value) {
    if (earlier.grid().size() != grid.size() || earlier.body().size() != 1
        || !(earlier.body().get(0) instanceof Stmt.Store store)) {
      return false;
    }
    SameOperand same = new SameOperand();
    for (int i = 0; i < grid.size(); i++) {
      if (!grid.get(i).size().equals(earlier.grid().get(i).size())) {
        return false;
      }
      same.vars.put(grid.get(i).var(), earlier.grid().get(i).var());
    }
    return same.same(value, store.value());
  }

  private boolean same(Expr a, Expr b) {
    Expr known = matched.get(a);
    if (known != null) {
      return known == b;
    }
    if (a.getClass() != b.getClass() || a.type() != b.type() || a.operands().size() != b.operands().size()) {
      return false;
    }
    boolean ok;
    if (a instanceof Expr.Var va) {
      ok = vars.get(va) == b;
    } else if (a instanceof Expr.Const ca) {
      Expr.Const cb = (Expr.Const) b;
      ok = Double.doubleToRawLongBits(ca.floatingValue()) == Double.doubleToRawLongBits(cb.floatingValue())
          && ca.integralValue() == cb.integralValue();
    } else if (a instanceof Expr.ScalarRef sa) {
      ok = sa.param().name().equals(((Expr.ScalarRef) b).param().name());
    } else if (a instanceof Expr.Load la) {
      ok = la.array().name().equals(((Expr.Load) b).array().name());
    } else if (a instanceof Expr.Unary ua) {
      ok = ua.op() == ((Expr.Unary) b).op();
    } else if (a instanceof Expr.Binary ba) {
      ok = ba.op() == ((Expr.Binary) b).op();
    } else if (a instanceof Expr.Call ca) {
      ok = ca.fn() == ((Expr.Call) b).fn();
    } else {
      ok = true; // a select or a cast: its type and operands say it all
    }
    for (int i = 0; ok && i < a.operands().size(); i++) {
      ok = same(a.operands().get(i), b.operands().get(i));
    }
    if (ok) {
      matched.put(a, b);
    }
    return ok;
  }
}
