package dev.kiln.processor.ir;

import java.util.List;
import java.util.Map;

/** A size polynomial over a composite's {@code @Dim}s as an int expression. */
public final class PolyExpr {
  private PolyExpr() {}

  public static Expr of(ExprFactory f, Poly p, Map<String, Param.Scalar> dims) {
    return f.poly(p, dims::get);
  }

  /** The row-major flat index of {@code coords} in {@code shape}: the sum of each coordinate times its stride. */
  public static Expr rowMajor(ExprFactory f, List<Expr> coords, Shape shape, Map<String, Param.Scalar> dims) {
    Expr flat = f.integral(ScalarType.INT, 0);
    for (int d = 0; d < coords.size(); d++) {
      flat = f.binary(BinaryOp.ADD, flat, f.binary(BinaryOp.MUL, coords.get(d), of(f, shape.stride(d), dims), -1), -1);
    }
    return flat;
  }
}
