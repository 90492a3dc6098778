package dev.kiln.processor.contraction;

import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.GridDim;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.analysis.Affine;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** The row-major layout of a buffer with one element per worker of a grid. */
final class DenseLayout {
  private DenseLayout() {}

  /** The stride of grid dimension {@code d}: the product of the extents inside it. */
  static Poly stride(List<GridDim> grid, GridDim d) {
    Poly p = Poly.ONE;
    for (int i = grid.indexOf(d) + 1; i < grid.size(); i++) {
      p = p.multiply(grid.get(i).size());
    }
    return p;
  }

  /** The grid's bounds as a shape's text: {@code B, T, 4*H}. */
  static String text(List<GridDim> grid) {
    StringBuilder b = new StringBuilder();
    for (GridDim g : grid) {
      b.append(b.length() == 0 ? "" : ", ").append(g.bound());
    }
    return b.toString();
  }

  /** A worker's element, as an affine form of the grid variables (by name). */
  static Affine index(List<GridDim> grid) {
    Affine a = Affine.constant(Poly.ZERO);
    for (GridDim g : grid) {
      a = a.add(Affine.variable(g.var().name()).scale(stride(grid, g)));
    }
    return a;
  }

  /** A worker's element as an IR expression, the extents from the size parameters {@code dims} names. */
  static Expr indexExpr(ExprFactory f, List<GridDim> grid, Function<String, Param.Scalar> dims) {
    Expr index = null;
    for (int i = 0; i < grid.size(); i++) {
      Expr term = grid.get(i).var();
      for (int j = i + 1; j < grid.size(); j++) {
        term = f.binary(BinaryOp.MUL, term, grid.get(j).extentExpr(f, dims), -1);
      }
      index = index == null ? term : f.binary(BinaryOp.ADD, index, term, -1);
    }
    return index;
  }

  /** The extents of the grid, outermost first. */
  static List<Poly> extents(List<GridDim> grid) {
    List<Poly> out = new ArrayList<>();
    grid.forEach(g -> out.add(g.size()));
    return out;
  }
}
