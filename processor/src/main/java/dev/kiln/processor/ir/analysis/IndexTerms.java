package dev.kiln.processor.ir.analysis;

import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.analysis.Affine;
import dev.kiln.processor.ir.analysis.AffineAnalysis;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Builds the {@link Term}s of an affine index from the ranges of its variables. */
public final class IndexTerms {
  private IndexTerms() {}

  /**
   * The terms of {@code index}, or null when a variable's range is unknown or a coefficient has
   * no provable sign.
   *
   * @param ranges {lo, hi} of every variable that may appear (grid variables from 0)
   * @param distinguishing the variables in which two workers differ
   */
  public static List<Term> of(
      Affine index, Map<String, Poly[]> ranges, Set<String> distinguishing, Set<String> dims) {
    List<Term> terms = new ArrayList<>();
    for (Map.Entry<String, Poly> c : index.coefficients().entrySet()) {
      Poly magnitude = magnitude(c.getValue(), dims);
      Poly[] range = ranges.get(c.getKey());
      if (magnitude == null || range == null) {
        return null;
      }
      Poly extent = range[1].subtract(range[0]);
      Poly steps = extent.subtract(Poly.ONE);
      if (!steps.provablyNonNegative(dims)) {
        if (!extent.provablyNonNegative(dims)) {
          return null;
        }
        steps = extent;
      }
      terms.add(new Term(c.getKey(), magnitude, magnitude.multiply(steps), distinguishing.contains(c.getKey())));
    }
    return terms;
  }

  /** |p| when p has a provable sign and is not zero; else null. */
  public static Poly magnitude(Poly p, Set<String> dims) {
    if (p.provablyPositive(dims)) {
      return p;
    }
    if (p.negate().provablyPositive(dims)) {
      return p.negate();
    }
    return null;
  }

  /**
   * {@code {min, max}} (inclusive) of {@code a} over its variables' {@code ranges} ({@code [lo,
   * hi)} as sizes), or null when a variable's range is unknown or a coefficient has no provable sign.
   */
  public static Poly[] bounds(Affine a, Map<String, Poly[]> ranges, Set<String> dims) {
    Poly min = a.constantPart();
    Poly max = a.constantPart();
    for (Map.Entry<String, Poly> t : a.coefficients().entrySet()) {
      Poly[] r = ranges.get(t.getKey());
      if (r == null) {
        return null;
      }
      Poly c = t.getValue();
      Poly last = r[1].subtract(Poly.ONE);
      if (c.provablyNonNegative(dims)) {
        min = min.add(c.multiply(r[0]));
        max = max.add(c.multiply(last));
      } else if (c.negate().provablyNonNegative(dims)) {
        min = min.add(c.multiply(last));
        max = max.add(c.multiply(r[0]));
      } else {
        return null;
      }
    }
    return new Poly[] {min, max};
  }

  /** Whether {@code 0 <= a < extent} over its variables' {@code ranges}, for every size. */
  public static boolean within(Affine a, Poly extent, Map<String, Poly[]> ranges, Set<String> dims) {
    Poly[] b = bounds(a, ranges, dims);
    return b != null && b[0].provablyNonNegative(dims) && extent.subtract(Poly.ONE).subtract(b[1]).provablyNonNegative(dims);
  }

  /** Adds the range of a sequential loop's index when its bounds are sizes: exactly the values it takes. */
  public static void addLoopRange(Stmt.Loop loop, Map<String, Poly[]> ranges) {
    Affine lo = AffineAnalysis.affine(loop.lo());
    Affine hi = AffineAnalysis.affine(loop.hi());
    if (lo != null && hi != null && lo.isConstant() && hi.isConstant()) {
      ranges.put(loop.index().name(), new Poly[] {lo.constantPart(), hi.constantPart()});
    }
  }

  /**
   * As {@link #addLoopRange}, and for a loop starting at an enclosing loop's index (a lane nest's
   * terms, {@link LaneNest}) the range from that loop's start: a range holding every value the
   * index takes, and more where the start moves. For bounds only (an index within an array, within
   * a row), never for counting the points a loop visits.
   */
  public static void addLoopRangeCovering(Stmt.Loop loop, Map<String, Poly[]> ranges) {
    addLoopRange(loop, ranges);
    Affine hi = AffineAnalysis.affine(loop.hi());
    if (!ranges.containsKey(loop.index().name()) && hi != null && hi.isConstant()
        && loop.lo() instanceof Expr.Var from && ranges.containsKey(from.name())) {
      ranges.put(loop.index().name(), new Poly[] {ranges.get(from.name())[0], hi.constantPart()});
    }
  }

  /** The ranges of the grid variables of an operator. */
  public static Map<String, Poly[]> gridRanges(dev.kiln.processor.ir.OperatorIr.Grid op) {
    Map<String, Poly[]> ranges = new HashMap<>();
    op.grid().forEach(g -> ranges.put(g.var().name(), new Poly[] {Poly.ZERO, g.size()}));
    return ranges;
  }
}
