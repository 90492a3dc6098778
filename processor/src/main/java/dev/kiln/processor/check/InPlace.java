package dev.kiln.processor.check;

import dev.kiln.processor.ir.ArrayRole;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.StmtWalk;
import dev.kiln.processor.ir.analysis.Affine;
import dev.kiln.processor.ir.analysis.AffineAnalysis;
import java.util.List;

/**
 * Which {@code @Out} arrays an operator may write in place of one of its inputs. The launcher of a
 * kernel reads and writes memory in an order of its own (workers in parallel, fused producers
 * before consumers), so calling it with an output that is also an input is only the plain method's
 * computation when each worker reads that input just at the element it writes, and only before it
 * writes it: {@code y[i] = 2 * x[i]} with {@code y == x}. Then no worker sees another's writes (the
 * race check made the writes distinct) nor its own. Everything else (stencils, reductions,
 * composites, products, two outputs that are one array) is refused at the call.
 */
public final class InPlace {
  private InPlace() {}

  /** Whether {@code op} computes its source's result when {@code out} and {@code in} are one array. */
  public static boolean safe(OperatorIr op, Param.Array out, Param.Array in) {
    if (!(op instanceof OperatorIr.Grid grid) || out.role() != ArrayRole.OUT || in.role() != ArrayRole.IN
        || out.elementType() != in.elementType()) {
      return false;
    }
    List<Stmt> body = grid.body();
    int at = -1;
    for (int i = 0; i < body.size(); i++) {
      Stmt s = body.get(i);
      if (s instanceof Stmt.Store st && st.array() == out) {
        if (at >= 0) {
          return false; // written twice: a later read could see the first value
        }
        at = i;
      } else if (s instanceof Stmt.Loop l && writes(l.body(), out)) {
        return false;
      }
    }
    if (at < 0) {
      return false;
    }
    Stmt.Store store = (Stmt.Store) body.get(at);
    Affine written = AffineAnalysis.affine(store.index());
    if (written == null) {
      return false;
    }
    for (int i = 0; i < body.size(); i++) {
      for (Expr.Load load : loadsOf(body.get(i), in)) {
        if (i > at || !written.equals(AffineAnalysis.affine(load.index()))) {
          return false;
        }
      }
    }
    return true;
  }

  private static boolean writes(List<Stmt> body, Param.Array out) {
    for (Stmt s : body) {
      if ((s instanceof Stmt.Store st && st.array() == out) || (s instanceof Stmt.Accumulate a && a.array() == out)
          || (s instanceof Stmt.Combine c && c.arrays().contains(out))
          || (s instanceof Stmt.Loop l && writes(l.body(), out))) {
        return true;
      }
    }
    return false;
  }

  /** The reads of {@code array} in a statement's expressions, through its loops. */
  private static List<Expr.Load> loadsOf(Stmt s, Param.Array array) {
    return StmtWalk.loadsOf(StmtWalk.exprs(s), array.name());
  }
}
