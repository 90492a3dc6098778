package dev.kiln.processor.autodiff;

import dev.kiln.processor.ir.ArrayRole;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.GridDim;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Shape;
import dev.kiln.processor.ir.Stmt;
import java.util.ArrayList;
import java.util.List;

/**
 * The small grid operators a backward pass adds between its calls: the sum of several gradient
 * contributions to one tensor ({@code out[i] = a1[i] + ... + ak[i]}, in that order), and a zero
 * fill for a gradient nothing contributes to. One-dimensional over the tensor's whole length; the
 * merger runs them over the tensor's shape and fuses them like any operator.
 */
final class SumOps {
  static final String SIZE = "n";

  private SumOps() {}

  /** {@code out = a1 + ... + ak} (k = 0: zeros), of {@code type}, over {@code n}. */
  static OperatorIr.Grid sum(String owner, int k, ScalarType type) {
    ExprFactory f = new ExprFactory();
    f.startOperator();
    Param.Scalar n = new Param.Scalar(SIZE, 0, ScalarType.INT, true);
    Shape shape = new Shape(SIZE, List.of(Poly.symbol(SIZE)));
    List<Param> params = new ArrayList<>();
    params.add(n);
    Expr.Var i = f.newVar("i", ScalarType.INT, Expr.VarKind.GRID);
    Expr total = null;
    for (int a = 1; a <= k; a++) {
      Param.Array in = new Param.Array("a" + a, params.size(), type, shape, ArrayRole.IN);
      params.add(in);
      Expr read = f.load(in, i, f.trueValue(), 0);
      total = total == null ? read : f.binary(BinaryOp.ADD, total, read, -1);
    }
    Param.Array out = new Param.Array("out", params.size(), type, shape, ArrayRole.OUT);
    params.add(out);
    Expr value = total == null ? f.constant(type, 0) : total;
    String name = k == 0 ? "zero" : "sum" + k;
    return new OperatorIr.Grid(owner, "grad$" + name + "$" + type.irName(), params, List.of(new GridDim(i, n)), List.of(new Stmt.Store(out, i, value, f.trueValue(), null)));
  }
}
