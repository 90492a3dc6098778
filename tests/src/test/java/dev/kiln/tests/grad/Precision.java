package dev.kiln.tests.grad;

/**
 * Step sizes and tolerances of the finite-difference checks, by the precision an operator computes
 * in (float when any of its parameters or its result is float, else double).
 *
 * <p>Everything is measured in changes of L over the whole step (no division by the step), so a
 * tolerance is {@code rel * size + NOISE * eps * magnitude}, where {@code magnitude} is the size of
 * the terms whose rounding errors make up the noise: the terms {@code dY_i Y_i} of L that the
 * perturbation changed, and the terms {@code dX_j delta_j} of the predicted change. See {@link
 * GradientCheckTest} for why these values.
 */
enum Precision {
  /** h = 1e-3 (relative to max(1, |x|)): noise about eps/h = 6e-5, truncation about h^2 = 1e-6. */
  FLOAT(0x1p-24, 1e-3, 1e-2),
  /** h = 1e-6: noise about eps/h = 1e-10, truncation about h^2 = 1e-12; both far below 1e-6. */
  DOUBLE(0x1p-53, 1e-6, 1e-6);

  /**
   * Multiple of {@code eps * magnitude} allowed for rounding noise. Measured on every test operator
   * (float): a step-halving gap, which combines 6 or 16 values of L, reaches 20 (99th percentile)
   * and 60 at most; the smoothness test allows it {@code NOISE/4} and {@code NOISE/2}.
   */
  static final double NOISE = 128;

  final double eps;
  final double step;
  final double rel;

  Precision(double eps, double step, double rel) {
    this.eps = eps;
    this.step = step;
    this.rel = rel;
  }

  /** The tolerance for two changes of L of about {@code size}, with rounding terms of {@code magnitude}. */
  double tolerance(double size, double magnitude) {
    return rel * size + NOISE * eps * magnitude;
  }

  static Precision of(Class<?>... types) {
    for (Class<?> t : types) {
      if (t == float.class || t == float[].class) {
        return FLOAT;
      }
    }
    return DOUBLE;
  }

  static boolean floating(Class<?> t) {
    return t == float.class || t == double.class || t == float[].class || t == double[].class;
  }

  /** {@code x + s * dir}, rounded to x's element type (float[] or double[]). */
  static Object shifted(Object x, double[] dir, double s) {
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

  static int length(Object array) {
    return java.lang.reflect.Array.getLength(array);
  }

  static double get(Object array, int j) {
    return array instanceof float[] a ? a[j] : ((double[]) array)[j];
  }
}
