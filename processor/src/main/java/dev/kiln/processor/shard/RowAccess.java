package dev.kiln.processor.shard;

import dev.kiln.processor.ir.analysis.Affine;
import dev.kiln.processor.ir.analysis.AffineAnalysis;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Poly;
import java.util.Map;
import java.util.Set;

/**
 * Whether an index stays in the row of its worker: {@code index = v * rowLength + rest} with
 * {@code rest} free of {@code v} and provably in {@code [0, rowLength)} for every value the loop
 * variables in it take (their ranges, not the guards around the access: conservative).
 */
final class RowAccess {
  private RowAccess() {}

  /** Inclusive ranges {@code [lo, hi]} of the variables an index may use, as polynomials of the {@code @Dim}s. */
  record Range(Poly lo, Poly hi) {}

  /** Null when {@code index} stays in row {@code v} of rows of {@code rowLength}, else why not. */
  static String check(Expr index, String v, Poly rowLength, String dim, Map<String, Range> ranges, Set<String> dims) {
    Affine a = AffineAnalysis.affine(index);
    if (a == null) {
      return "an index not affine in the loop variables";
    }
    if (!a.coefficient(v).equals(rowLength)) {
      return "an index that steps by " + a.coefficient(v) + " where a row is " + rowLength + " elements";
    }
    Affine rest = a.subtract(Affine.variable(v).scale(rowLength));
    Poly min = rest.constantPart();
    Poly max = rest.constantPart();
    for (Map.Entry<String, Poly> t : rest.coefficients().entrySet()) {
      Range r = ranges.get(t.getKey());
      Poly c = t.getValue();
      if (r == null) {
        return "an index that uses '" + t.getKey() + "', whose range is not known";
      }
      if (c.provablyNonNegative(dims)) {
        min = min.add(c.multiply(r.lo()));
        max = max.add(c.multiply(r.hi()));
      } else if (c.negate().provablyNonNegative(dims)) {
        min = min.add(c.multiply(r.hi()));
        max = max.add(c.multiply(r.lo()));
      } else {
        return "an index whose step in '" + t.getKey() + "' has no known sign";
      }
    }
    if (min.symbols().contains(dim) || max.symbols().contains(dim)) {
      return "an index that depends on " + dim + " itself";
    }
    if (!min.provablyNonNegative(dims) || !rowLength.subtract(Poly.ONE).subtract(max).provablyNonNegative(dims)) {
      return "an index that may leave its row (from " + min + " to " + max + " in a row of " + rowLength + ")";
    }
    return null;
  }
}
