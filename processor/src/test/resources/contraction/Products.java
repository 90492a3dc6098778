package contraction;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Shape;

/** Matrix products the contraction pass lowers to GEMM leaves, and near misses it must leave as loops. */
public final class Products {
  @Operator
  public static void denseRelu(@Dim int B, @Dim int K, @Dim int N, @Shape("B, K") float[] x,
      @Shape("K, N") float[] w, @Shape("N") float[] bias, @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++)
      for (@Parallel int n = 0; n < N; n++) {
        float acc = 0f;
        for (int k = 0; k < K; k++) acc += x[b * K + k] * w[k * N + n];
        y[b * N + n] = Math.max(acc + bias[n], 0f);
      }
  }

  @Operator
  public static void matmulTT(@Dim int M, @Dim int K, @Dim int N, @Shape("K, M") double[] a,
      @Shape("N, K") double[] b, @Out @Shape("M, N") double[] c) {
    for (@Parallel int m = 0; m < M; m++)
      for (@Parallel int n = 0; n < N; n++) {
        double acc = 0;
        for (int k = 0; k < K; k++) acc += b[n * K + k] * a[k * M + m];
        c[m * N + n] = acc;
      }
  }

  /** LSTM gates: two products into one accumulator, from a bias; the output is transposed. */
  @Operator
  public static void gatesT(@Dim int B, @Dim int I, @Dim int H, @Shape("B, I") float[] x, @Shape("B, H") float[] h,
      @Shape("I, H") float[] wx, @Shape("H, H") float[] wh, @Shape("H") float[] bias, @Out @Shape("H, B") float[] g) {
    for (@Parallel int b = 0; b < B; b++)
      for (@Parallel int j = 0; j < H; j++) {
        float acc = bias[j];
        for (int k = 0; k < I; k++) acc += x[b * I + k] * wx[k * H + j];
        for (int k = 0; k < H; k++) acc += h[b * H + k] * wh[k * H + j];
        g[j * B + b] = acc;
      }
  }

  @Operator
  public static void batched(@Dim int Q, @Dim int M, @Dim int K, @Dim int N, @Shape("Q, M, K") float[] a,
      @Shape("Q, K, N") float[] b, @Out @Shape("Q, M, N") float[] c) {
    for (@Parallel int q = 0; q < Q; q++)
      for (@Parallel int m = 0; m < M; m++)
        for (@Parallel int n = 0; n < N; n++) {
          float acc = 0f;
          for (int k = 0; k < K; k++) acc += a[(q * M + m) * K + k] * b[(q * K + k) * N + n];
          c[(q * M + m) * N + n] = acc;
        }
  }

  /** A window of the operands: the loop starts at 1 and reads a column block. */
  @Operator
  public static void window(@Dim int M, @Dim int K, @Dim int N, @Shape("M, K") float[] a,
      @Shape("K, 2*N") float[] b, @Out @Shape("M, N") float[] c) {
    for (@Parallel int m = 0; m < M; m++)
      for (@Parallel int n = 0; n < N; n++) {
        float acc = 0f;
        for (int k = 1; k < K; k++) acc += a[m * K + k] * b[k * 2 * N + N + n];
        c[m * N + n] = acc;
      }
  }

  // ---- near misses: loops stay loops ----

  /** Reversed reads: a negative stride is no GEMM operand. */
  @Operator
  public static void reversed(@Dim int M, @Dim int K, @Shape("M, K") float[] a, @Shape("K") float[] x,
      @Out @Shape("M") float[] y) {
    for (@Parallel int m = 0; m < M; m++) {
      float acc = 0f;
      for (int k = 0; k < K; k++) acc += a[m * K + k] * x[K - 1 - k];
      y[m] = acc;
    }
  }

  /** A third factor in the product. */
  @Operator
  public static void scaled(@Dim int M, @Dim int K, @Shape("M, K") float[] a, @Shape("K") float[] x, float s,
      @Out @Shape("M") float[] y) {
    for (@Parallel int m = 0; m < M; m++) {
      float acc = 0f;
      for (int k = 0; k < K; k++) acc += a[m * K + k] * x[k] * s;
      y[m] = acc;
    }
  }

  /** A guarded read (a band): not every product is taken. */
  @Operator
  public static void band(@Dim int M, @Dim int K, @Shape("M, K") float[] a, @Shape("K") float[] x,
      @Out @Shape("M") float[] y) {
    for (@Parallel int m = 0; m < M; m++) {
      float acc = 0f;
      for (int k = 0; k < K; k++) acc += k <= m ? a[m * K + k] * x[k] : 0f;
      y[m] = acc;
    }
  }

  /** Both operands strided along both of their dimensions. */
  @Operator
  public static void strided(@Dim int M, @Dim int K, @Shape("M, 2*K") float[] a, @Shape("2*K") float[] x,
      @Out @Shape("M") float[] y) {
    for (@Parallel int m = 0; m < M; m++) {
      float acc = 0f;
      for (int k = 0; k < K; k++) acc += a[m * 2 * K + 2 * k] * x[2 * k];
      y[m] = acc;
    }
  }

  /** The first sum is also stored on its own. */
  @Operator
  public static void partialUsed(@Dim int M, @Dim int K, @Shape("M, K") float[] a, @Shape("K") float[] x,
      @Shape("K") float[] z, @Out @Shape("M") float[] y, @Out @Shape("M") float[] p) {
    for (@Parallel int m = 0; m < M; m++) {
      float acc = 0f;
      for (int k = 0; k < K; k++) acc += a[m * K + k] * x[k];
      p[m] = acc;
      for (int k = 0; k < K; k++) acc += a[m * K + k] * z[k];
      y[m] = acc;
    }
  }

  /**
   * A masked, scaled term, as a derived attention gradient has it: the left operand {@code k <= m ?
   * s * a : 0} is computed first by a prologue kernel, then one GEMM.
   */
  @Operator
  public static void lowerMasked(@Dim int M, @Dim int K, @Dim int N, @Shape("M, K") float[] a, float s,
      @Shape("K, N") float[] b, @Out @Shape("M, N") float[] y) {
    for (@Parallel int m = 0; m < M; m++)
      for (@Parallel int n = 0; n < N; n++) {
        float acc = 0f;
        for (int k = 0; k < K; k++) acc += k <= m ? s * a[m * K + k] * b[k * N + n] : 0f;
        y[m * N + n] = acc;
      }
  }

  /**
   * A masked term read down a column of {@code a} ({@code a[k, m]}, summed over {@code k}): the
   * prologue lays its operand out as it reads it, row innermost, and the GEMM reads it transposed.
   */
  @Operator
  public static void upperMaskedT(@Dim int M, @Dim int K, @Dim int N, @Shape("K, M") float[] a,
      @Shape("K, N") float[] b, @Out @Shape("M, N") float[] y) {
    for (@Parallel int m = 0; m < M; m++)
      for (@Parallel int n = 0; n < N; n++) {
        float acc = 0f;
        for (int k = 0; k < K; k++) acc += m <= k ? (a[k * M + m] + 1f) * b[k * N + n] : 0f;
        y[m * N + n] = acc;
      }
  }

  /** Two independent sums in one worker: two GEMMs, each written straight into its output. */
  @Operator
  public static void twoSums(@Dim int M, @Dim int K, @Dim int N, @Shape("M, K") float[] a, @Shape("K, N") float[] b,
      @Shape("M, K") float[] c, @Shape("K, N") float[] d, @Out @Shape("M, N") float[] y, @Out @Shape("M, N") float[] z) {
    for (@Parallel int m = 0; m < M; m++)
      for (@Parallel int n = 0; n < N; n++) {
        float acc = 0f;
        for (int k = 0; k < K; k++) acc += a[m * K + k] * b[k * N + n];
        y[m * N + n] = acc;
        float acc2 = 0f;
        for (int k = 0; k < K; k++) acc2 += c[m * K + k] * d[k * N + n];
        z[m * N + n] = acc2;
      }
  }

  /**
   * Attention's backward shape: two sums of one masked operand, the second down its columns. The
   * second product reads the operand the first one's prologue wrote (the same floats, laid out the
   * same way), transposed.
   */
  @Operator
  public static void maskedBoth(@Dim int M, @Dim int N, @Shape("M, M") float[] g, @Shape("M, N") float[] u,
      @Shape("M, N") float[] w, @Out @Shape("M, N") float[] du, @Out @Shape("M, N") float[] dw) {
    for (@Parallel int i = 0; i < M; i++)
      for (@Parallel int d = 0; d < N; d++) {
        float acc = 0f;
        for (int j = 0; j < M; j++) acc += j <= i ? g[i * M + j] * 0.5f * u[j * N + d] : 0f;
        du[i * N + d] = acc;
        float acc2 = 0f;
        for (int j = 0; j < M; j++) acc2 += i <= j ? g[j * M + i] * 0.5f * w[j * N + d] : 0f;
        dw[i * N + d] = acc2;
      }
  }
}
