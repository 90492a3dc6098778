package dev.kiln.processor.fuzz;

/**
 * Steps and tolerances of the gradient fuzzer's finite-difference checks, by the precision an
 * operator computes in: float when the text of the operator or of an operator it calls says {@code
 * float} anywhere (a parameter, a local, a cast), else double. Ported from the tests module's
 * {@code Precision}, with the same values (see {@link GradientFuzzTest} for why they hold here).
 *
 * <p>Everything is measured in changes of L over the whole step, so a tolerance is {@code rel *
 * size + NOISE * eps * magnitude + 4 * quantum}, where {@code magnitude} is the size of the terms whose rounding
 * makes up the noise: the terms {@code dY_i Y_i} of L that the perturbation changed, and the terms
 * {@code dX_j delta_j} of the predicted change.
 */
enum GradPrecision {
  /** h = 1e-3 (relative to max(1, |x|)): noise about eps/h = 6e-5, truncation about h^2 = 1e-6. */
  FLOAT(0x1p-24, 1e-3, 1e-2, Float.MIN_VALUE),
  /** h = 1e-6: noise about eps/h = 1e-10, truncation about h^2 = 1e-12; both far below 1e-6. */
  DOUBLE(0x1p-53, 1e-6, 1e-6, Double.MIN_VALUE);

  /** Multiple of {@code eps * magnitude} allowed for rounding noise (as in the tests module). */
  static final double NOISE = 128;

  final double eps;
  final double step;
  final double rel;

  /**
   * The smallest step of the type's values: a change of L below a few of them is invisible to
   * central differences (values that are themselves subnormal, {@code q * 1.0E-42f}), whatever the
   * gradient says.
   */
  final double quantum;

  GradPrecision(double eps, double step, double rel, double quantum) {
    this.eps = eps;
    this.step = step;
    this.rel = rel;
    this.quantum = quantum;
  }

  double tolerance(double size, double magnitude) {
    return rel * size + NOISE * eps * magnitude + 4 * quantum;
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

  static double get(Object array, int j) {
    return array instanceof float[] a ? a[j] : ((double[]) array)[j];
  }

  static int length(Object array) {
    return java.lang.reflect.Array.getLength(array);
  }

  static double[] toDoubles(Object array) {
    double[] d = new double[length(array)];
    for (int j = 0; j < d.length; j++) {
      d[j] = get(array, j);
    }
    return d;
  }
}
