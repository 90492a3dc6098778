package javadoc;

import static dev.kiln.KMath.*;
import dev.kiln.*;

/** Operators whose generated launchers include kernels, gradients and forms that the class does not declare. */
public final class Links {
  private Links() {}

  @Operator
  public static float swish(float x) {
    return x * sigmoid(x);
  }

  @Operator
  public static void scale(@Dim int N, @Shape("N") float[] x, @Shape("N") float[] w, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = x[i] * w[i];
    }
  }

  @Operator
  public static void rowSoftmax(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      float m = Float.NEGATIVE_INFINITY;
      for (int k = 0; k < N; k++) {
        m = max(m, x[b * N + k]);
      }
      float s = 0f;
      for (int k = 0; k < N; k++) {
        s += exp(x[b * N + k] - m);
      }
      for (int k = 0; k < N; k++) {
        y[b * N + k] = exp(x[b * N + k] - m) / s;
      }
    }
  }

  @Operator
  public static void dense(@Dim int B, @Dim int K, @Dim int N, @Shape("B, K") float[] x, @Shape("K, N") float[] w,
      @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int n = 0; n < N; n++) {
        float acc = 0f;
        for (int k = 0; k < K; k++) {
          acc += x[b * K + k] * w[k * N + n];
        }
        y[b * N + n] = acc;
      }
    }
  }

  /** Two calls fused into one kernel, {@code block_k0}, with a gradient of its own kernels. */
  @Operator
  public static void block(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("B, N") float[] w,
      @Out @Shape("B, N") float[] y) {
    float[] t = new float[B * N];
    scale(B * N, x, w, t);
    rowSoftmax(B, N, t, y);
  }
}
