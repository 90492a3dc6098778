package dev.kiln.sample;

import static dev.kiln.KMath.*;

import dev.kiln.*;

/**
 * The operators of a small LSTM classifier, written as plain Java. Kiln's processor compiles them
 * into {@code LstmOpsKernels}; called directly, as here, they are the reference the kernels are
 * checked against.
 */
public final class LstmOps {
  private LstmOps() {}

  /** The logistic function: an elementwise operator. */
  @Operator
  public static float sigmoid(float x) { return 1f / (1f + exp(-x)); }

  /**
   * One LSTM cell step from pre-computed gates, laid out per row as {@code [i | j | f | o]}, each
   * {@code H} wide: one worker per (b, h).
   */
  @Operator
  public static void lstmCell(@Dim int B, @Dim int H,
                              @Shape("B, 4*H") float[] gates, @Shape("B, H") float[] c, float forgetBias,
                              @Out @Shape("B, H") float[] cNext, @Out @Shape("B, H") float[] hNext) {
    for (@Parallel int b = 0; b < B; b++)
      for (@Parallel int h = 0; h < H; h++) {
        int g = b * 4 * H;
        float i = gates[g + h], j = gates[g + H + h], f = gates[g + 2 * H + h], o = gates[g + 3 * H + h];
        float cn = c[b * H + h] * sigmoid(f + forgetBias) + sigmoid(i) * tanh(j);
        cNext[b * H + h] = cn;
        hNext[b * H + h] = tanh(cn) * sigmoid(o);
      }
  }

  /**
   * The affine map {@code y = x·w + bias}: one worker per (b, n), each a sequential dot product over
   * {@code k}.
   */
  @Operator
  public static void affine(@Dim int B, @Dim int K, @Dim int N,
                            @Shape("B, K") float[] x, @Shape("K, N") float[] w, @Shape("N") float[] bias,
                            @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++)
      for (@Parallel int n = 0; n < N; n++) {
        float s = bias[n];
        for (int k = 0; k < K; k++) {
          s += x[b * K + k] * w[k * N + n];
        }
        y[b * N + n] = s;
      }
  }

  /**
   * Row-wise softmax, stable against overflow (the row's maximum is subtracted first): one worker
   * per row, three sequential passes over it (max, sum of exponentials, normalise).
   */
  @Operator
  public static void softmax(@Dim int B, @Dim int N,
                             @Shape("B, N") float[] x, @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      int row = b * N;
      float m = Float.NEGATIVE_INFINITY;
      for (int k = 0; k < N; k++) {
        m = max(m, x[row + k]);
      }
      float s = 0f;
      for (int k = 0; k < N; k++) {
        s += exp(x[row + k] - m);
      }
      for (int k = 0; k < N; k++) {
        y[row + k] = exp(x[row + k] - m) / s;
      }
    }
  }

  /**
   * Joins each row of {@code x} and of {@code h} into one row of {@code xh}: {@code [x_b | h_b]}.
   * One worker per row, reading each element from whichever input holds it.
   */
  @Operator
  public static void concatRows(@Dim int B, @Dim int I, @Dim int H,
                                @Shape("B, I") float[] x, @Shape("B, H") float[] h,
                                @Out @Shape("B, I + H") float[] xh) {
    for (@Parallel int b = 0; b < B; b++) {
      for (int j = 0; j < I + H; j++) {
        xh[b * (I + H) + j] = j < I ? x[b * I + j] : h[b * H + j - I];
      }
    }
  }
}
