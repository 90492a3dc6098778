package dev.kiln.processor.fusion;

import dev.kiln.processor.ir.analysis.IndexTerms;
import dev.kiln.processor.ir.analysis.Affine;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.Stmt;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The ranges of a worker's index variables ({@code [lo, hi)} as sizes), and the bounds of an affine
 * index over them, when they can be proved for every size of at least 1.
 */
final class Ranges {
  private final Map<String, Poly[]> ranges = new HashMap<>();
  private final Set<String> dims;

  Ranges(List<Expr.Var> grid, List<Poly> extents, List<Stmt> body, Set<String> dims) {
    this.dims = dims;
    for (int k = 0; k < grid.size(); k++) {
      ranges.put(grid.get(k).name(), new Poly[] {Poly.ZERO, extents.get(k)});
    }
    addLoops(body);
  }

  private void addLoops(List<Stmt> body) {
    for (Stmt s : body) {
      if (s instanceof Stmt.Loop l) {
        IndexTerms.addLoopRangeCovering(l, ranges); // (bounds only: a superset of a lane nest's range is sound)
        addLoops(l.body());
      }
    }
  }

  /** {@code {min, max}} (inclusive) of {@code a}, or null when a bound cannot be proved. */
  Poly[] bounds(Affine a) {
    return IndexTerms.bounds(a, ranges, dims);
  }

  /** Whether {@code 0 <= a < extent} for every worker. */
  boolean within(Affine a, Poly extent) {
    return IndexTerms.within(a, extent, ranges, dims);
  }

  Set<String> dims() {
    return dims;
  }
}
