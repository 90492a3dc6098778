package dev.kiln.processor.ir;

import java.util.List;

/**
 * Finds the loops that are sums of products of two array reads ({@code acc += a[..] * b[..]}): the
 * shape of a matrix product, which the contraction pass runs as a library GEMM over the operator's
 * grid. Fusion asks before it turns such an operator's grid dimensions into sequential loops of
 * another kernel, which would leave the product a loop.
 */
public final class ProductLoops {
  private ProductLoops() {}

  /** Whether a top-level loop of {@code body} accumulates products of two reads. */
  public static boolean any(List<Stmt> body) {
    for (Stmt s : body) {
      if (s instanceof Stmt.Loop l && isProductLoop(l)) {
        return true;
      }
    }
    return false;
  }

  /** The reads that are factors of a product loop's terms, at the top level of {@code body}. */
  public static java.util.Set<Expr.Load> operands(List<Stmt> body) {
    java.util.Set<Expr.Load> out = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    for (Stmt s : body) {
      if (s instanceof Stmt.Loop l && isProductLoop(l)) {
        Stmt.Carried c = l.carried().get(0);
        Expr.Binary add = (Expr.Binary) c.next();
        Expr.Binary mul = (Expr.Binary) (add.left() == c.phi() ? add.right() : add.left());
        out.add((Expr.Load) mul.left());
        out.add((Expr.Load) mul.right());
      }
    }
    return out;
  }

  private static boolean isProductLoop(Stmt.Loop l) {
    if (l.carried().size() != 1 || !l.body().isEmpty()) {
      return false;
    }
    Stmt.Carried c = l.carried().get(0);
    if (!(c.next() instanceof Expr.Binary add) || add.op() != BinaryOp.ADD) {
      return false;
    }
    Expr term = add.left() == c.phi() ? add.right() : add.right() == c.phi() ? add.left() : null;
    return term instanceof Expr.Binary mul && mul.op() == BinaryOp.MUL
        && mul.left() instanceof Expr.Load && mul.right() instanceof Expr.Load;
  }
}
