package dev.kiln.processor.fusion;

import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import java.util.HashSet;
import java.util.Set;

/**
 * A rough per-element cost of an expression, for deciding whether to recompute a producer at its
 * reads: a math function call counts 8, an integer division 4, a load 2, other operations 1;
 * shared subexpressions count once.
 */
final class Cost {
  private Cost() {}

  static int of(Expr e) {
    return of(e, new HashSet<>());
  }

  private static int of(Expr e, Set<Expr> seen) {
    if (!seen.add(e)) {
      return 0;
    }
    int own;
    if (e instanceof Expr.Const || e instanceof Expr.ScalarRef || e instanceof Expr.Var) {
      own = 0;
    } else if (e instanceof Expr.Call) {
      own = 8;
    } else if (e instanceof Expr.Binary b && (b.op() == BinaryOp.DIV || b.op() == BinaryOp.REM)) {
      own = 4;
    } else if (e instanceof Expr.Load) {
      own = 2;
    } else {
      own = 1;
    }
    for (Expr o : e.operands()) {
      own += of(o, seen);
    }
    return own;
  }

  /** Whether the expressions use only grid variables: no value carried by or computed after a loop. */
  static boolean loopFree(Expr... roots) {
    Set<Expr> seen = new HashSet<>();
    for (Expr r : roots) {
      if (!loopFree(r, seen)) {
        return false;
      }
    }
    return true;
  }

  private static boolean loopFree(Expr e, Set<Expr> seen) {
    if (!seen.add(e)) {
      return true;
    }
    if (e instanceof Expr.Var v && v.kind() != Expr.VarKind.GRID) {
      return false;
    }
    for (Expr o : e.operands()) {
      if (!loopFree(o, seen)) {
        return false;
      }
    }
    return true;
  }
}
