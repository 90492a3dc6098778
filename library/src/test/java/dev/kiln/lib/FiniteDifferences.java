package dev.kiln.lib;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Function;

/** Central differences of a plain-Java operator, against a Kiln gradient: the library tests' one check. */
final class FiniteDifferences {
  private FiniteDifferences() {}

  /**
   * {@code L(x) = sum dy . forward(x)} in double: its central difference along a random direction
   * against {@code grad . direction}, within 1% (h = 1e-3 on float sources).
   */
  static void checkDirectional(float[] dy, float[] grad, float[] x, Function<float[], float[]> forward) {
    checkDirectional(dy, grad, x, forward, 1e-3f);
  }

  /**
   * As above with step {@code h}: a larger one where the outputs are large against their
   * derivatives (a loss summed over a row), so that their float rounding stays small against the
   * difference.
   */
  static void checkDirectional(float[] dy, float[] grad, float[] x, Function<float[], float[]> forward, float h) {
    float[] dir = Data.floats(51, x.length, -1f, 1f);
    float[] plus = new float[x.length];
    float[] minus = new float[x.length];
    double predicted = 0;
    for (int i = 0; i < x.length; i++) {
      plus[i] = x[i] + h * dir[i];
      minus[i] = x[i] - h * dir[i];
      predicted += (double) grad[i] * ((double) plus[i] - minus[i]);
    }
    float[] yp = forward.apply(plus);
    float[] ym = forward.apply(minus);
    double fd = 0;
    for (int i = 0; i < dy.length; i++) {
      fd += (double) dy[i] * ((double) yp[i] - ym[i]);
    }
    assertTrue(Math.abs(fd - predicted) <= 1e-2 * Math.max(Math.abs(fd), 1e-3),
        "central difference " + fd + ", gradient predicts " + predicted);
  }
}
