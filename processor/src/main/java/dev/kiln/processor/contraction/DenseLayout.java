package dev.kiln.processor.contraction;

import dev.kiln.processor.ir.GridDim;
import dev.kiln.processor.ir.Poly;
import java.util.ArrayList;
import java.util.List;

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

  /** The extents of the grid, outermost first. */
  static List<Poly> extents(List<GridDim> grid) {
    List<Poly> out = new ArrayList<>();
    grid.forEach(g -> out.add(g.size()));
    return out;
  }
}
