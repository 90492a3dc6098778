package dev.kiln.testing;

import java.lang.reflect.Array;

/**
 * Step sizes and tolerances of the finite-difference checks of gradients, by the precision an
 * operator computes in: shared by the tests module's gradient check and the processor's gradient
 * fuzzer (each had its own copy before).
 *
 * <p>Everything is measured in changes of L over the whole step (no division by the step), so a
 * tolerance is {@code rel * size + NOISE * eps * magnitude + 4 * quantum}, where {@code magnitude} is
 * the size of the terms whose rounding errors make up the noise (the terms {@code dY_i Y_i} of L, see
 * {@link Probe.Noise}, and the terms {@code dX_j delta_j} of the predicted change) and {@code
 * quantum} the type's smallest step, below a few of which a change of L is invisible (values that
 * are themselves subnormal). The tests module's {@code GradientCheckTest} says why these values.
 */
public enum Precision {
  /** h = 1e-3 (relative to max(1, |x|)): noise about eps/h = 6e-5, truncation about h^2 = 1e-6. */
  FLOAT(0x1p-24, 1e-3, 1e-2, Float.MIN_VALUE),
  /** h = 1e-6: noise about eps/h = 1e-10, truncation about h^2 = 1e-12; both far below 1e-6. */
  DOUBLE(0x1p-53, 1e-6, 1e-6, Double.MIN_VALUE);

  /**
   * Multiple of {@code eps * magnitude} allowed for rounding noise. Measured on every test operator
   * (float): a step-halving gap, which combines 6 or 16 values of L, reaches 20 (99th percentile)
   * and 60 at most; the smoothness test allows it {@code NOISE/4} and {@code NOISE/2}.
   */
  public static final double NOISE = 128;

  public final double eps;
  public final double step;
  public final double rel;
  public final double quantum;

  Precision(double eps, double step, double rel, double quantum) {
    this.eps = eps;
    this.step = step;
    this.rel = rel;
    this.quantum = quantum;
  }

  /** The tolerance for two changes of L of about {@code size}, with rounding terms of {@code magnitude}. */
  public double tolerance(double size, double magnitude) {
    return rel * size + NOISE * eps * magnitude + 4 * quantum;
  }

  /** {@link #FLOAT} when any of {@code types} is {@code float} or {@code float[]}, else {@link #DOUBLE}. */
  public static Precision of(Class<?>... types) {
    for (Class<?> t : types) {
      if (t == float.class || t == float[].class) {
        return FLOAT;
      }
    }
    return DOUBLE;
  }

  /** Whether {@code t} is a floating scalar or array type. */
  public static boolean floating(Class<?> t) {
    return t == float.class || t == double.class || t == float[].class || t == double[].class;
  }

  /** {@code x + s * dir}, rounded to x's element type (float[] or double[]). */
  public static Object shifted(Object x, double[] dir, double s) {
    if (x instanceof float[] a) {
      float[] out = a.clone();
      for (int j = 0; j < a.length; j++) {
        if (dir[j] != 0) {
          out[j] = (float) (a[j] + s * dir[j]);
        }
      }
      return out;
    }
    double[] a = (double[]) x;
    double[] out = a.clone();
    for (int j = 0; j < a.length; j++) {
      if (dir[j] != 0) {
        out[j] = a[j] + s * dir[j];
      }
    }
    return out;
  }

  public static int length(Object array) {
    return Array.getLength(array);
  }

  public static double get(Object array, int j) {
    return array instanceof float[] a ? a[j] : ((double[]) array)[j];
  }

  /** A float[] or double[] as doubles. */
  public static double[] toDoubles(Object array) {
    double[] d = new double[length(array)];
    for (int j = 0; j < d.length; j++) {
      d[j] = get(array, j);
    }
    return d;
  }
}
