package dev.kiln.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.reflect.Array;
import java.util.function.IntToDoubleFunction;

/**
 * Compares what a generated kernel computed with what the operator's plain-Java source computed:
 * shared by the test suites of the tests and library modules (each had its own copy before).
 *
 * <p>Two values agree when both are NaN, when they are equal (so {@code 0 == -0} and equal
 * infinities agree), or when both are finite and {@code |expected - actual| <= absTol + relTol *
 * |expected|}. A failure names the first index that disagrees, how many disagree, and the worst.
 *
 * <p>Tolerances used across the tests:
 *
 * <ul>
 *   <li>{@link #SAME}: elementwise operators and pure data movement. Java arithmetic is
 *       deterministic and a kernel compiled from the same expression does the same operations in
 *       the same order, so the results must be identical (up to the sign of zero and NaN payloads).
 *   <li>{@link #FLOAT_REL} / {@link #FLOAT_ABS}: float grid operators without reductions, and
 *       {@link #DOUBLE_REL} / {@link #DOUBLE_ABS} in double. A worker's code, sequential loops
 *       included, runs in source order; the slack only admits contraction to fused multiply-add.
 *   <li>reductions: see {@link #sumTolerance(float[])}.
 * </ul>
 */
public final class Agreement {
  private Agreement() {}

  /** Exact agreement. */
  public static final double SAME = 0.0;

  public static final double FLOAT_REL = 1e-6;
  public static final double FLOAT_ABS = 1e-6;
  public static final double DOUBLE_REL = 1e-12;
  public static final double DOUBLE_ABS = 1e-12;

  /** The unit roundoff of float, 2^-24. */
  public static final double FLOAT_EPS = 0x1p-24;

  public static void assertClose(float[] expected, float[] actual, double relTol, double absTol) {
    assertEquals(expected.length, actual.length, "array length");
    assertClose(expected, actual, i -> expected[i], i -> actual[i], relTol, absTol);
  }

  public static void assertClose(double[] expected, double[] actual, double relTol, double absTol) {
    assertEquals(expected.length, actual.length, "array length");
    assertClose(expected, actual, i -> expected[i], i -> actual[i], relTol, absTol);
  }

  /**
   * The comparison of two float or double arrays of the same length, element {@code i} read as a
   * double (exact for floats); the failure shows elements in their own type.
   */
  private static void assertClose(Object expected, Object actual, IntToDoubleFunction e, IntToDoubleFunction a,
      double relTol, double absTol) {
    int length = Array.getLength(expected);
    int first = -1;
    int count = 0;
    int worst = -1;
    double worstExcess = 0;
    for (int i = 0; i < length; i++) {
      if (!agree(e.applyAsDouble(i), a.applyAsDouble(i), relTol, absTol)) {
        count++;
        if (first < 0) {
          first = i;
        }
        double excess = excess(e.applyAsDouble(i), a.applyAsDouble(i), relTol, absTol);
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
              length,
              relTol,
              absTol,
              first,
              Array.get(expected, first),
              Array.get(actual, first),
              worst,
              Array.get(expected, worst),
              Array.get(actual, worst)));
    }
  }

  /** Identical results (see {@link #SAME}). */
  public static void assertSame(float[] expected, float[] actual) {
    assertClose(expected, actual, SAME, SAME);
  }

  /** Identical results (see {@link #SAME}). */
  public static void assertSame(double[] expected, double[] actual) {
    assertClose(expected, actual, SAME, SAME);
  }

  /**
   * The difference allowed between two float sums of {@code x} computed in different orders: {@code
   * 4 sqrt(n) u sum|x_i|}. Rounding errors of a long sum behave like a random walk, so a plain
   * loop's error is typically about {@code sqrt(n) u sum|x_i|} and a tree's much less; the factor 4
   * leaves room for unlucky orders. Order-independent bugs (a dropped or repeated element) are
   * caught by the tests on exactly representable data, which demand {@link #SAME}.
   */
  public static double sumTolerance(float[] x) {
    double magnitude = 0;
    for (float v : x) {
      magnitude += Math.abs(v);
    }
    return 4 * Math.sqrt(Math.max(1, x.length)) * FLOAT_EPS * magnitude;
  }

  public static boolean agree(double expected, double actual, double relTol, double absTol) {
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
  public static void assertWithinContraction(float[] expected, float[] actual, float[] magnitude, int k) {
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
  public static float[] abs(float[] x) {
    float[] out = new float[x.length];
    for (int i = 0; i < x.length; i++) {
      out[i] = Math.abs(x[i]);
    }
    return out;
  }

  /** {@link #assertWithinContraction(float[], float[], float[], int)} in double: u is 2^-53. */
  public static void assertWithinContraction(double[] expected, double[] actual, double[] magnitude, int k) {
    assertEquals(expected.length, actual.length, "array length");
    double gamma = 2.0 * (k + 2) * 0x1p-53;
    for (int i = 0; i < expected.length; i++) {
      boolean ok = Double.isNaN(expected[i]) || Double.isNaN(actual[i])
          ? Double.isNaN(expected[i]) && Double.isNaN(actual[i])
          : expected[i] == actual[i] || Math.abs(expected[i] - actual[i]) <= gamma * Math.abs(magnitude[i]) + Double.MIN_NORMAL;
      if (!ok) {
        fail(String.format("element [%d] differs by more than the contraction bound 2(k+2)u*magnitude (k=%d):"
            + " expected %s but was %s (magnitude %s)", i, k, expected[i], actual[i], magnitude[i]));
      }
    }
  }

  /** The absolute values of {@code x}. */
  public static double[] abs(double[] x) {
    double[] out = new double[x.length];
    for (int i = 0; i < x.length; i++) {
      out[i] = Math.abs(x[i]);
    }
    return out;
  }


  /**
   * The magnitude for {@link #assertWithinContraction} of a matrix-vector product followed by
   * linear or contracting work with gain at most {@code gain} (a blur, a 3-tap convolution, tanh):
   * every output gets {@code gain} times the largest {@code sum_k |a[i, k] x[k]|}.
   */
  public static float[] matvecMagnitude(int m, int k, float[] a, float[] x, float gain, int outputs) {
    float worst = 0;
    for (int i = 0; i < m; i++) {
      double s = 0;
      for (int p = 0; p < k; p++) {
        s += Math.abs((double) a[i * k + p] * x[p]);
      }
      worst = Math.max(worst, (float) s);
    }
    float[] out = new float[outputs];
    java.util.Arrays.fill(out, gain * worst);
    return out;
  }

}
