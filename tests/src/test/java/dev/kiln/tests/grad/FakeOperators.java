package dev.kiln.tests.grad;

import dev.kiln.Dim;
import dev.kiln.Out;
import dev.kiln.Reduce;
import dev.kiln.Shape;

/**
 * Hand-written operators and gradients for {@link FiniteDifferenceSelfTest}, in the shape the
 * processor generates ({@code fGrad(f's parameters, dY..., dX...)}); not {@code @Operator}s, so
 * Kiln leaves them alone. Each {@code ...Wrong} gradient has one deliberate mistake.
 */
final class FakeOperators {
  private FakeOperators() {}

  /** y[i] = s tanh(a[i]) b[i]; t[0] += a[i] b[i] (double, a @Reduce output, a constant scalar). */
  static void tanhDot(@Dim int N, @Shape("N") double[] a, @Shape("N") double[] b, double s,
      @Out @Shape("N") double[] y, @Out @Reduce @Shape("1") double[] t) {
    for (int i = 0; i < N; i++) {
      y[i] = s * Math.tanh(a[i]) * b[i];
      t[0] += a[i] * b[i];
    }
  }

  static void tanhDotGrad(int N, double[] a, double[] b, double s, double[] y, double[] t,
      double[] dy, double[] dt, double[] da, double[] db) {
    for (int i = 0; i < N; i++) {
      double th = Math.tanh(a[i]);
      da[i] = dy[i] * s * (1 - th * th) * b[i] + dt[0] * b[i];
      db[i] = dy[i] * s * th + dt[0] * a[i];
    }
  }

  /** Forgets the @Reduce output's contribution to db. */
  static void tanhDotGradWrong(int N, double[] a, double[] b, double s, double[] y, double[] t,
      double[] dy, double[] dt, double[] da, double[] db) {
    for (int i = 0; i < N; i++) {
      double th = Math.tanh(a[i]);
      da[i] = dy[i] * s * (1 - th * th) * b[i] + dt[0] * b[i];
      db[i] = dy[i] * s * th;
    }
  }

  /** A 3-point stencil with zero padding, in float. */
  static void blur(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    for (int i = 0; i < N; i++) {
      float left = i > 0 ? x[i - 1] : 0f;
      float right = i < N - 1 ? x[i + 1] : 0f;
      out[i] = 0.25f * left + 0.5f * x[i] + 0.25f * right;
    }
  }

  static void blurGrad(int N, float[] x, float[] out, float[] dout, float[] dx) {
    for (int j = 0; j < N; j++) {
      float fromLeft = j > 0 ? dout[j - 1] : 0f;
      float fromRight = j < N - 1 ? dout[j + 1] : 0f;
      dx[j] = 0.5f * dout[j] + 0.25f * (fromLeft + fromRight);
    }
  }

  /** Wrong only at the last element: drops what out[N-2] takes from x[N-1]. */
  static void blurGradWrong(int N, float[] x, float[] out, float[] dout, float[] dx) {
    for (int j = 0; j < N; j++) {
      float fromLeft = j > 0 && j < N - 1 ? dout[j - 1] : 0f;
      float fromRight = j < N - 1 ? dout[j + 1] : 0f;
      dx[j] = 0.5f * dout[j] + 0.25f * (fromLeft + fromRight);
    }
  }

  /** Leaves dx[0] unwritten. */
  static void blurGradPartial(int N, float[] x, float[] out, float[] dout, float[] dx) {
    for (int j = 1; j < N; j++) {
      float fromLeft = dout[j - 1];
      float fromRight = j < N - 1 ? dout[j + 1] : 0f;
      dx[j] = 0.5f * dout[j] + 0.25f * (fromLeft + fromRight);
    }
  }

  /** Correct, but scribbles on its forward-output argument. */
  static void blurGradClobbers(int N, float[] x, float[] out, float[] dout, float[] dx) {
    blurGrad(N, x, out, dout, dx);
    out[0] = 42f;
  }

  /** y[m] = relu(sum_k a[m, k] x[k]): kinks inside a float matvec. */
  static void reluMatvec(@Dim int M, @Dim int K, @Shape("M, K") float[] a, @Shape("K") float[] x,
      @Out @Shape("M") float[] y) {
    for (int m = 0; m < M; m++) {
      float acc = 0f;
      for (int k = 0; k < K; k++) {
        acc += a[m * K + k] * x[k];
      }
      y[m] = Math.max(acc, 0f);
    }
  }

  static void reluMatvecGrad(int M, int K, float[] a, float[] x, float[] y, float[] dy, float[] da, float[] dx) {
    java.util.Arrays.fill(dx, 0f);
    for (int m = 0; m < M; m++) {
      float g = y[m] > 0f ? dy[m] : 0f;
      for (int k = 0; k < K; k++) {
        da[m * K + k] = g * x[k];
        dx[k] += g * a[m * K + k];
      }
    }
  }

  /** Forgets relu's mask: differentiates as if every row were active. */
  static void reluMatvecGradWrong(int M, int K, float[] a, float[] x, float[] y, float[] dy, float[] da, float[] dx) {
    java.util.Arrays.fill(dx, 0f);
    for (int m = 0; m < M; m++) {
      for (int k = 0; k < K; k++) {
        da[m * K + k] = dy[m] * x[k];
        dx[k] += dy[m] * a[m * K + k];
      }
    }
  }

  /** A staircase: piecewise constant with steps finer than h, so never smooth at any draw. */
  static void staircase(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (int i = 0; i < N; i++) {
      y[i] = (float) Math.floor(x[i] * 1e4) + x[i];
    }
  }

  static void staircaseGrad(int N, float[] x, float[] y, float[] dy, float[] dx) {
    System.arraycopy(dy, 0, dx, 0, N);
  }

  // elementwise

  static float softplus(float x) {
    return (float) Math.log1p(Math.exp(x));
  }

  static float softplusGrad(float x, float y, float dy) {
    return dy / (1f + (float) Math.exp(-x));
  }

  /** Uses y where the derivative needs sigmoid(x). */
  static float softplusGradWrong(float x, float y, float dy) {
    return dy * y;
  }

  static void softplusGrad(float[] x, float[] y, float[] dy, float[] dx) {
    for (int i = 0; i < x.length; i++) {
      dx[i] = softplusGrad(x[i], y[i], dy[i]);
    }
  }

  /** Off by one ulp at one element. */
  static void softplusGradMapWrong(float[] x, float[] y, float[] dy, float[] dx) {
    softplusGrad(x, y, dy, dx);
    dx[5] = Math.nextUp(dx[5]);
  }

  /** Two floating parameters, a kink: {@code max(x, 0) * w}. */
  static float reluScale(float x, float w) {
    return Math.max(x, 0f) * w;
  }

  static float reluScaleGrad_x(float x, float w, float y, float dy) {
    return x > 0f ? dy * w : 0f;
  }

  static float reluScaleGrad_w(float x, float w, float y, float dy) {
    return dy * Math.max(x, 0f);
  }

  /** d/dw taken as if x were never clipped. */
  static float reluScaleGrad_wWrong(float x, float w, float y, float dy) {
    return dy * x;
  }
}
