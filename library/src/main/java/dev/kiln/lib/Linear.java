package dev.kiln.lib;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Shape;

/**
 * Dense products of row-major matrices: one worker per output element, a sequential dot product
 * over {@code k} inside it, added in order of {@code k}.
 */
public final class Linear {
  private Linear() {}

  /** {@code out[b, n] = bias[n] + sum over k of x[b, k] * w[k, n]}: {@code x w + bias}. */
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

  /** {@code out[b, n] = sum over k of x[b, k] * w[k, n]}: {@code x w}. */
  @Operator
  public static void matmul(
      @Dim int B,
      @Dim int K,
      @Dim int N,
      @Shape("B, K") float[] x,
      @Shape("K, N") float[] w,
      @Out @Shape("B, N") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int n = 0; n < N; n++) {
        float acc = 0f;
        for (int k = 0; k < K; k++) {
          acc += x[b * K + k] * w[k * N + n];
        }
        out[b * N + n] = acc;
      }
    }
  }
}
