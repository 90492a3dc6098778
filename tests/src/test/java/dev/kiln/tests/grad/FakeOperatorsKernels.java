package dev.kiln.tests.grad;

/**
 * Stands in for the class the processor would generate for {@link FakeOperators}: the correct
 * gradients under the generated names, so that {@link FiniteDifferenceSelfTest} can run {@link
 * GradientCheckTest}'s own lookup on them. {@code staircase} has none.
 */
final class FakeOperatorsKernels {
  private FakeOperatorsKernels() {}

  public static void tanhDotGrad(int N, double[] a, double[] b, double s, double[] y, double[] t,
      double[] dy, double[] dt, double[] da, double[] db) {
    FakeOperators.tanhDotGrad(N, a, b, s, y, t, dy, dt, da, db);
  }

  public static void blurGrad(int N, float[] x, float[] out, float[] dout, float[] dx) {
    FakeOperators.blurGrad(N, x, out, dout, dx);
  }

  /** Like a device overload: same name, other parameter types; the lookup must not take it. */
  public static void blurGrad(String stream, int N) {
    throw new AssertionError("the device-like overload was called");
  }

  public static void reluMatvecGrad(int M, int K, float[] a, float[] x, float[] y, float[] dy, float[] da, float[] dx) {
    FakeOperators.reluMatvecGrad(M, K, a, x, y, dy, da, dx);
  }

  public static float softplusGrad(float x, float y, float dy) {
    return FakeOperators.softplusGrad(x, y, dy);
  }

  public static void softplusGrad(float[] x, float[] y, float[] dy, float[] dx) {
    FakeOperators.softplusGrad(x, y, dy, dx);
  }

  public static float reluScaleGrad_x(float x, float w, float y, float dy) {
    return FakeOperators.reluScaleGrad_x(x, w, y, dy);
  }

  public static float reluScaleGrad_w(float x, float w, float y, float dy) {
    return FakeOperators.reluScaleGrad_w(x, w, y, dy);
  }
}
