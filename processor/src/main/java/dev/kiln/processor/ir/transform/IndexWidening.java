package dev.kiln.processor.ir.transform;

import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.UnaryOp;

/**
 * Computes every array index in 64 bits. Java indices are {@code int}s (a Java array never holds
 * more than 2^31 elements), but device arrays may, and an {@code int} product such as {@code b * 4
 * * H} would wrap before it reached them. Sums, differences and products of {@code int}s in an
 * index become {@code long} arithmetic; anything else (a data-dependent index, a division) is
 * computed as written and widened. The {@code plan} pass applies it to the operators it hands the
 * CUDA writer; the CPU's kernels keep {@code int} indices.
 */
public final class IndexWidening {
  private IndexWidening() {}

  /** {@code op} with every array index computed in 64 bits. */
  public static OperatorIr.Grid apply(OperatorIr.Grid op) {
    ExprFactory f = new ExprFactory();
    Rewriter rewriter = new Rewriter(f, (original, rebuilt) ->
        rebuilt instanceof Expr.Load l ? f.load(l.array(), widen(f, l.index()), l.guard(), l.scope()) : rebuilt);
    return rewriter.rewrite(op, (stmt, index) -> widen(f, index));
  }

  private static Expr widen(ExprFactory f, Expr e) {
    if (e.type() != ScalarType.INT) {
      return e;
    }
    if (e instanceof Expr.Binary b && (b.op() == BinaryOp.ADD || b.op() == BinaryOp.SUB || b.op() == BinaryOp.MUL)) {
      return f.binary(b.op(), widen(f, b.left()), widen(f, b.right()), -1);
    }
    if (e instanceof Expr.Unary u && u.op() == UnaryOp.NEG) {
      return f.unary(UnaryOp.NEG, widen(f, u.operand()));
    }
    return f.cast(ScalarType.LONG, e);
  }
}
