package dev.kiln.lib;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Compares what a generated kernel computed with what the operator's plain-Java source computed (a
 * copy of the tests module's helper, float only).
 *
 * <p>Two values agree when both are NaN, when they are equal (so {@code 0 == -0} and equal
 * infinities agree), or when both are finite and {@code |expected - actual| <= absTol + relTol *
 * |expected|}. A failure names the first index that disagrees, how many disagree, and the worst.
 *
 * <ul>
 *   <li>{@link #SAME}: elementwise maps, broadcasts, data movement, and row reductions whose
 *       sequential loop the kernel runs in source order: the same operations in the same order.
 *   <li>{@link #FLOAT_REL} / {@link #FLOAT_ABS}: dot products, where the slack only admits
 *       contraction to fused multiply-add.
 * </ul>
 */
final class Agreement {
  private Agreement() {}

  /** Exact agreement. */
  static final double SAME = 0.0;

  static final double FLOAT_REL = 1e-6;
  static final double FLOAT_ABS = 1e-6;

  static void assertClose(float[] expected, float[] actual, double relTol, double absTol) {
    assertEquals(expected.length, actual.length, "array length");
    int first = -1;
    int count = 0;
    int worst = -1;
    double worstExcess = 0;
    for (int i = 0; i < expected.length; i++) {
      if (!agree(expected[i], actual[i], relTol, absTol)) {
        count++;
        if (first < 0) {
          first = i;
        }
        double excess = excess(expected[i], actual[i], relTol, absTol);
        if (worst < 0 || excess > worstExcess) {
          worst = i;
          worstExcess = excess;
        }
      }
    }
    if (first >= 0) {
      fail(
          String.format(
              "%d of %d elements disagree (relTol %g, absTol %g); first at [%d]: expected %s but"
                  + " was %s; worst at [%d]: expected %s but was %s",
              count,
              expected.length,
              relTol,
              absTol,
              first,
              expected[first],
              actual[first],
              worst,
              expected[worst],
              actual[worst]));
    }
  }

  /** Identical results (see {@link #SAME}). */
  static void assertSame(float[] expected, float[] actual) {
    assertClose(expected, actual, SAME, SAME);
  }

  static boolean agree(double expected, double actual, double relTol, double absTol) {
    if (Double.isNaN(expected) || Double.isNaN(actual)) {
      return Double.isNaN(expected) && Double.isNaN(actual);
    }
    if (expected == actual) {
      return true;
    }
    if (Double.isInfinite(expected) || Double.isInfinite(actual)) {
      return false;
    }
    return Math.abs(expected - actual) <= absTol + relTol * Math.abs(expected);
  }

  private static double excess(double expected, double actual, double relTol, double absTol) {
    double diff = Math.abs(expected - actual);
    if (Double.isNaN(diff)) {
      return Double.POSITIVE_INFINITY;
    }
    return diff - (absTol + relTol * Math.abs(expected));
  }

  /**
   * Agreement of a matrix product with its source loop (LANGUAGE.md, "Matrix products"): a GEMM
   * sums the {@code k} products in another order than the loop, so each element may differ by
   * {@code 2 (k + 2) u magnitude[i]}, where {@code magnitude} is the operator run on the absolute
   * values of its inputs (for a sum of products plus a bias, {@code sum|a*b| + |bias|}) and u is
   * 2^-24. NaN must match NaN.
   */
  static void assertWithinContraction(float[] expected, float[] actual, float[] magnitude, int k) {
    assertEquals(expected.length, actual.length, "array length");
    double gamma = 2.0 * (k + 2) * 0x1p-24;
    int count = 0;
    int first = -1;
    for (int i = 0; i < expected.length; i++) {
      double bound = gamma * Math.abs((double) magnitude[i]) + Float.MIN_NORMAL;
      boolean ok = Float.isNaN(expected[i]) || Float.isNaN(actual[i])
          ? Float.isNaN(expected[i]) && Float.isNaN(actual[i])
          : expected[i] == actual[i] || Math.abs((double) expected[i] - actual[i]) <= bound;
      if (!ok) {
        count++;
        first = first < 0 ? i : first;
      }
    }
    if (first >= 0) {
      fail(String.format("%d of %d elements differ by more than the contraction bound 2(k+2)u*magnitude (k=%d);"
          + " first at [%d]: expected %s but was %s (magnitude %s)", count, expected.length, k, first,
          expected[first], actual[first], magnitude[first]));
    }
  }

  /** The absolute values of {@code x}, for {@link #assertWithinContraction}'s magnitudes. */
  static float[] abs(float[] x) {
    float[] out = new float[x.length];
    for (int i = 0; i < x.length; i++) {
      out[i] = Math.abs(x[i]);
    }
    return out;
  }

}
