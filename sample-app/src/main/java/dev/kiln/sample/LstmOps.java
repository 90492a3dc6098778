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
   * The gradient of {@link #affine}, written by hand ({@code @Gradient}): {@code dx = dy·wᵀ},
   * {@code dw = xᵀ·dy}, {@code dbias} the column sums of {@code dy}. Kiln uses it as {@code
   * affineGrad} and inside every backward pass of this class that goes through an affine map. The
   * gradient Kiln derives itself is the same, but keeps the adjoint of every read of the dot
   * product, B·K·N floats for {@code x} and as many for {@code w}: several times slower here.
   */
  @Gradient(of = "affine")
  public static void affineBackward(@Dim int B, @Dim int K, @Dim int N,
                                    @Shape("B, K") float[] x, @Shape("K, N") float[] w, @Shape("N") float[] bias,
                                    @Shape("B, N") float[] y, @Shape("B, N") float[] dy,
                                    @Out @Shape("B, K") float[] dx, @Out @Shape("K, N") float[] dw,
                                    @Out @Shape("N") float[] dbias) {
    matmulTransposedB(B, N, K, dy, w, dx);
    matmulTransposedA(B, K, N, x, dy, dw);
    columnSums(B, N, dy, dbias);
  }

  /** {@code out = a·bᵀ} for {@code a} [M, P] and {@code b} [Q, P]: one worker per (m, q). */
  @Operator
  public static void matmulTransposedB(@Dim int M, @Dim int P, @Dim int Q,
                                       @Shape("M, P") float[] a, @Shape("Q, P") float[] b,
                                       @Out @Shape("M, Q") float[] out) {
    for (@Parallel int m = 0; m < M; m++)
      for (@Parallel int q = 0; q < Q; q++) {
        float s = 0f;
        for (int p = 0; p < P; p++) {
          s += a[m * P + p] * b[q * P + p];
        }
        out[m * Q + q] = s;
      }
  }

  /** {@code out = aᵀ·b} for {@code a} [P, M] and {@code b} [P, Q]: one worker per (m, q). */
  @Operator
  public static void matmulTransposedA(@Dim int P, @Dim int M, @Dim int Q,
                                       @Shape("P, M") float[] a, @Shape("P, Q") float[] b,
                                       @Out @Shape("M, Q") float[] out) {
    for (@Parallel int m = 0; m < M; m++)
      for (@Parallel int q = 0; q < Q; q++) {
        float s = 0f;
        for (int p = 0; p < P; p++) {
          s += a[p * M + m] * b[p * Q + q];
        }
        out[m * Q + q] = s;
      }
  }

  /** {@code out[n] = sum_b x[b, n]}: one worker per column. */
  @Operator
  public static void columnSums(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("N") float[] out) {
    for (@Parallel int n = 0; n < N; n++) {
      float s = 0f;
      for (int b = 0; b < B; b++) {
        s += x[b * N + n];
      }
      out[n] = s;
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

  /**
   * One LSTM time step as a composite of the three operators above: {@code xh = [x | h]}, {@code
   * gates = xh·w + bias}, then the cell. Kiln fuses the calls, and derives {@code lstmStepGrad}, the
   * step's backward pass (used by the training loop for backpropagation through time).
   */
  @Operator
  public static void lstmStep(@Dim int B, @Dim int I, @Dim int H,
                              @Shape("B, I") float[] x, @Shape("B, H") float[] h, @Shape("B, H") float[] c,
                              @Shape("I + H, 4*H") float[] w, @Shape("4*H") float[] bias, float forgetBias,
                              @Out @Shape("B, H") float[] cNext, @Out @Shape("B, H") float[] hNext) {
    float[] xh = new float[B * (I + H)];
    float[] gates = new float[B * 4 * H];
    int K = I + H;
    int G = 4 * H;
    concatRows(B, I, H, x, h, xh);
    affine(B, K, G, xh, w, bias, gates);
    lstmCell(B, H, gates, c, forgetBias, cNext, hNext);
  }

  /**
   * Softmax cross-entropy of each row of {@code logits} against a target distribution (one-hot for
   * a class label): {@code loss[b] = sum_k target[b,k] * (logsumexp(logits[b]) - logits[b,k])}.
   * One worker per row; the maximum is subtracted before exponentiating.
   */
  @Operator
  public static void crossEntropy(@Dim int B, @Dim int C,
                                  @Shape("B, C") float[] logits, @Shape("B, C") float[] target,
                                  @Out @Shape("B") float[] loss) {
    for (@Parallel int b = 0; b < B; b++) {
      int row = b * C;
      float m = Float.NEGATIVE_INFINITY;
      for (int k = 0; k < C; k++) {
        m = max(m, logits[row + k]);
      }
      float s = 0f;
      for (int k = 0; k < C; k++) {
        s += exp(logits[row + k] - m);
      }
      float lse = m + log(s);
      float l = 0f;
      for (int k = 0; k < C; k++) {
        l += target[row + k] * (lse - logits[row + k]);
      }
      loss[b] = l;
    }
  }

  /**
   * The classifier's head and loss: {@code logits = h·wOut + bOut}, then the cross-entropy of each
   * row. A composite; its derived backward pass {@code classifierLossGrad} starts backpropagation.
   */
  @Operator
  public static void classifierLoss(@Dim int B, @Dim int H, @Dim int C,
                                    @Shape("B, H") float[] h, @Shape("H, C") float[] wOut, @Shape("C") float[] bOut,
                                    @Shape("B, C") float[] target, @Out @Shape("B") float[] loss) {
    float[] logits = new float[B * C];
    affine(B, H, C, h, wOut, bOut, logits);
    crossEntropy(B, C, logits, target, loss);
  }

  /** {@code sum = a + b}: accumulates a weight's gradient over the time steps. */
  @Operator
  public static void add(@Dim int N, @Shape("N") float[] a, @Shape("N") float[] b, @Out @Shape("N") float[] sum) {
    for (@Parallel int i = 0; i < N; i++) {
      sum[i] = a[i] + b[i];
    }
  }

  /** One step of gradient descent: {@code next = w - lr * grad}. */
  @Operator
  public static void sgd(@Dim int N, @Shape("N") float[] w, @Shape("N") float[] grad, float lr,
                         @Out @Shape("N") float[] next) {
    for (@Parallel int i = 0; i < N; i++) {
      next[i] = w[i] - lr * grad[i];
    }
  }
}
