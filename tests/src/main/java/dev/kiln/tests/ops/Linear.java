package dev.kiln.tests.ops;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Shape;

/** Dense linear algebra as grid operators: one worker per output element or row. */
public final class Linear {
  private Linear() {}

  /** {@code out = a * x + y}: a 1-D grid and a plain float scalar parameter. */
  @Operator
  public static void saxpy(
      @Dim int N,
      float a,
      @Shape("N") float[] x,
      @Shape("N") float[] y,
      @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = a * x[i] + y[i];
    }
  }

  /** {@code y = A x}: one worker per row, a sequential inner loop accumulating into a local. */
  @Operator
  public static void matvec(
      @Dim int M,
      @Dim int K,
      @Shape("M, K") float[] a,
      @Shape("K") float[] x,
      @Out @Shape("M") float[] y) {
    for (@Parallel int m = 0; m < M; m++) {
      float acc = 0f;
      for (int k = 0; k < K; k++) {
        acc += a[m * K + k] * x[k];
      }
      y[m] = acc;
    }
  }

  /** {@code out = x w + bias}: a 2-D grid, an inner loop, a bias broadcast over rows. */
  @Operator
  public static void affine(
      @Dim int B,
      @Dim int K,
      @Dim int N,
      @Shape("B, K") float[] x,
      @Shape("K, N") float[] w,
      @Shape("N") float[] bias,
      @Out @Shape("B, N") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int n = 0; n < N; n++) {
        float acc = bias[n];
        for (int k = 0; k < K; k++) {
          acc += x[b * K + k] * w[k * N + n];
        }
        out[b * N + n] = acc;
      }
    }
  }

  /** {@code relu(x w + bias)}: calls an elementwise operator of another class (inlined). */
  @Operator
  public static void affineRelu(
      @Dim int B,
      @Dim int K,
      @Dim int N,
      @Shape("B, K") float[] x,
      @Shape("K, N") float[] w,
      @Shape("N") float[] bias,
      @Out @Shape("B, N") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int n = 0; n < N; n++) {
        float acc = bias[n];
        for (int k = 0; k < K; k++) {
          acc += x[b * K + k] * w[k * N + n];
        }
        out[b * N + n] = Activations.relu(acc);
      }
    }
  }

  /** {@code out[b, n] = x[b, n] + bias[n]}: a broadcast read. */
  @Operator
  public static void addBias(
      @Dim int B,
      @Dim int N,
      @Shape("B, N") float[] x,
      @Shape("N") float[] bias,
      @Out @Shape("B, N") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int n = 0; n < N; n++) {
        out[b * N + n] = x[b * N + n] + bias[n];
      }
    }
  }
}
