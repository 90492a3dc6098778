package dev.kiln.processor.frontend;

import com.sun.source.tree.Tree;
import dev.kiln.processor.diag.KilnDiagnostic;
import dev.kiln.processor.diag.Message;
import dev.kiln.processor.ir.Affine;
import dev.kiln.processor.ir.AffineAnalysis;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Refuses array accesses that are out of bounds for every worker: a constant index below zero or
 * at least the array's length, or an unconditional index whose smallest value (every variable
 * with a non-negative coefficient at its lower bound) is already past the end. Sizes ({@code @Dim}
 * symbols) are taken to be at least 1; an empty grid runs no worker at all.
 */
final class BoundsCheck {
  private final Set<String> dims;

  /** The lower bound of each grid and loop variable in scope. */
  final Map<String, Poly> lowerBounds = new HashMap<>();

  BoundsCheck(Set<String> dims) {
    this.dims = dims;
  }

  void check(Tree at, Param.Array array, Expr index, Expr guard) {
    Affine a = AffineAnalysis.affine(index);
    if (a == null) {
      return;
    }
    Poly length = array.shape().length();
    if (a.isConstant()) {
      Poly c = a.constantPart();
      if (c.negate().subtract(Poly.ONE).provablyNonNegative(dims)
          || c.subtract(length).provablyNonNegative(dims)) {
        throw new KilnDiagnostic(at, Message.INDEX_OUT_OF_BOUNDS, a, array.name(), length);
      }
      return;
    }
    if (!(guard instanceof Expr.Const g && g.isTrue())) {
      return;
    }
    Poly min = a.constantPart();
    for (Map.Entry<String, Poly> t : a.coefficients().entrySet()) {
      Poly lo = lowerBounds.get(t.getKey());
      if (lo == null || !t.getValue().provablyNonNegative(dims)) {
        return;
      }
      min = min.add(t.getValue().multiply(lo));
    }
    if (min.subtract(length).provablyNonNegative(dims)) {
      throw new KilnDiagnostic(at, Message.INDEX_OUT_OF_BOUNDS, a, array.name(), length);
    }
  }
}
