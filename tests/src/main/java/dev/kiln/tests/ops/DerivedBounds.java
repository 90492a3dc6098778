package dev.kiln.tests.ops;

import static dev.kiln.KMath.*;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Shape;

/** {@code @Parallel} bounds made of {@code @Dim}s ({@code j < 4 * H}, {@code i < N1 + N2}), as {@code @Shape} allows them. */
public final class DerivedBounds {
  private DerivedBounds() {}

  /** {@code x} then {@code y}: one worker per element of the result. */
  @Operator
  public static void concat(@Dim int N1, @Dim int N2, @Shape("N1") float[] x, @Shape("N2") float[] y,
      @Out @Shape("N1 + N2") float[] out) {
    for (@Parallel int i = 0; i < N1 + N2; i++) {
      out[i] = i < N1 ? x[i] : 2f * y[i - N1];
    }
  }

  /** The four gates' activations with their bias: one worker per gate value of each row. */
  @Operator
  public static void gateActivations(@Dim int B, @Dim int H, @Shape("B, 4*H") float[] g, @Shape("4*H") float[] bias,
      @Out @Shape("B, 4*H") float[] a) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int j = 0; j < 4 * H; j++) {
        a[b * 4 * H + j] = sigmoid(g[b * 4 * H + j] + bias[j]);
      }
    }
  }

  /** The gates' product {@code x w} with {@code w} of {@code 4 * H} columns (a GEMM leaf whose n is {@code 4*H}). */
  @Operator
  public static void gateProduct(@Dim int B, @Dim int I, @Dim int H, @Shape("B, I") float[] x, @Shape("I, 4*H") float[] w,
      @Out @Shape("B, 4*H") float[] g) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int j = 0; j < (H + H) * 2; j++) {
        float acc = 0f;
        for (int k = 0; k < I; k++) {
          acc += x[b * I + k] * w[k * 4 * H + j];
        }
        g[b * 4 * H + j] = acc;
      }
    }
  }

  /** A bound with a constant term, and a doubled one: {@code y[i] = x[i] + x[i + 1]} over {@code 2 * N + 1} workers. */
  @Operator
  public static void pairSums(@Dim int N, @Shape("2 * N + 2") float[] x, @Out @Shape("2 * N + 1") float[] y) {
    for (@Parallel int i = 0; i < 2 * N + 1; i++) {
      y[i] = x[i] + x[i + 1];
    }
  }
}
