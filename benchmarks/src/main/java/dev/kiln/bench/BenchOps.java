package dev.kiln.bench;

import static dev.kiln.KMath.erf;
import static dev.kiln.KMath.exp;
import static dev.kiln.KMath.max;
import static dev.kiln.KMath.rsqrt;
import static dev.kiln.KMath.sigmoid;
import static dev.kiln.KMath.sqrt;
import static dev.kiln.KMath.tanh;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Shape;

/**
 * The benchmarked operators, written as the natural plain loops a user would write (no library
 * calls, no tuning): Kiln compiles them, derives their gradients and fuses the composites.
 */
public final class BenchOps {
  private BenchOps() {}

  /** A dense layer: {@code y = relu(x w + bias)}. */
  @Operator
  public static void denseRelu(@Dim int B, @Dim int K, @Dim int N, @Shape("B, K") float[] x,
      @Shape("K, N") float[] w, @Shape("N") float[] bias, @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++)
      for (@Parallel int n = 0; n < N; n++) {
        float acc = 0f;
        for (int k = 0; k < K; k++) acc += x[b * K + k] * w[k * N + n];
        y[b * N + n] = max(acc + bias[n], 0f);
      }
  }

  /** A matrix product {@code y = x w}; its derived gradient is the benchmark's "matmul gradient". */
  @Operator
  public static void matmul(@Dim int B, @Dim int K, @Dim int N, @Shape("B, K") float[] x,
      @Shape("K, N") float[] w, @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++)
      for (@Parallel int n = 0; n < N; n++) {
        float acc = 0f;
        for (int k = 0; k < K; k++) acc += x[b * K + k] * w[k * N + n];
        y[b * N + n] = acc;
      }
  }

  /** LSTM gates {@code x wx + h wh + bias}: two products into one accumulator. */
  @Operator
  public static void gates(@Dim int B, @Dim int I, @Dim int H, @Dim int G, @Shape("B, I") float[] x,
      @Shape("B, H") float[] h, @Shape("I, G") float[] wx, @Shape("H, G") float[] wh, @Shape("G") float[] bias,
      @Out @Shape("B, G") float[] g) {
    for (@Parallel int b = 0; b < B; b++)
      for (@Parallel int j = 0; j < G; j++) {
        float acc = bias[j];
        for (int k = 0; k < I; k++) acc += x[b * I + k] * wx[k * G + j];
        for (int k = 0; k < H; k++) acc += h[b * H + k] * wh[k * G + j];
        g[b * G + j] = acc;
      }
  }

  /** The LSTM cell on gates {@code [i | j | f | o]}, forget bias 1. */
  @Operator
  public static void lstmCell(@Dim int B, @Dim int H, @Shape("B, 4*H") float[] gates, @Shape("B, H") float[] c,
      @Out @Shape("B, H") float[] cNext, @Out @Shape("B, H") float[] hNext) {
    for (@Parallel int b = 0; b < B; b++)
      for (@Parallel int h = 0; h < H; h++) {
        int g = b * 4 * H;
        float i = gates[g + h], j = gates[g + H + h], f = gates[g + 2 * H + h], o = gates[g + 3 * H + h];
        float cn = c[b * H + h] * sigmoid(f + 1f) + sigmoid(i) * tanh(j);
        cNext[b * H + h] = cn;
        hNext[b * H + h] = tanh(cn) * sigmoid(o);
      }
  }

  /** One LSTM step: the gates' products, then the cell. */
  @Operator
  public static void lstmStep(@Dim int B, @Dim int I, @Dim int H, @Shape("B, I") float[] x, @Shape("B, H") float[] h,
      @Shape("B, H") float[] c, @Shape("I, 4*H") float[] wx, @Shape("H, 4*H") float[] wh, @Shape("4*H") float[] bias,
      @Out @Shape("B, H") float[] cNext, @Out @Shape("B, H") float[] hNext) {
    int G = 4 * H;
    float[] g = new float[B * G];
    gates(B, I, H, G, x, h, wx, wh, bias, g);
    lstmCell(B, H, g, c, cNext, hNext);
  }

  /** Row softmax: the maximum, the sum of exponentials (a lane sum), then each element. */
  @Operator
  public static void softmax(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      float m = Float.NEGATIVE_INFINITY;
      for (int k = 0; k < N; k++) m = max(m, x[b * N + k]);
      float s = 0f;
      for (int j = 0; j < 32; j++) {                  // a lane sum: 32 strided partial sums
        float p = 0f;
        for (int k = j; k < N; k += 32) p += exp(x[b * N + k] - m);
        s += p;
      }
      for (int k = 0; k < N; k++) y[b * N + k] = exp(x[b * N + k] - m) / s;
    }
  }

  /** Layer norm over each row with a learned scale and shift, epsilon 1e-5; its sums lane sums. */
  @Operator
  public static void layerNorm(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("N") float[] gamma,
      @Shape("N") float[] beta, @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      float s = 0f;
      for (int j = 0; j < 32; j++) {                  // lane sums: 32 strided partial sums
        float p = 0f;
        for (int k = j; k < N; k += 32) p += x[b * N + k];
        s += p;
      }
      float mean = s / N;
      float v = 0f;
      for (int j = 0; j < 32; j++) {
        float q = 0f;
        for (int k = j; k < N; k += 32) q += (x[b * N + k] - mean) * (x[b * N + k] - mean);
        v += q;
      }
      float r = rsqrt(v / N + 1e-5f);
      for (int k = 0; k < N; k++) y[b * N + k] = (x[b * N + k] - mean) * r * gamma[k] + beta[k];
    }
  }

  /** GELU with the error function. */
  @Operator
  public static void gelu(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      float v = x[i];
      y[i] = 0.5f * v * (1f + erf(v * 0.70710678f));
    }
  }

  /** OVL's example (its paper's fusion case): split each row of x in halves, add y to each, multiply, concatenate. */
  @Operator
  public static void ovl(@Dim int B, @Dim int N, @Shape("B, 2*N") float[] x, @Shape("B, N") float[] y,
      @Out @Shape("B, 2*N") float[] out) {
    float[] lo = new float[B * N];
    float[] hi = new float[B * N];
    split2(B, N, x, lo, hi);
    float[] a = new float[B * N];
    add(B * N, lo, y, a);
    float[] b = new float[B * N];
    add(B * N, hi, y, b);
    float[] p = new float[B * N];
    mul(B * N, a, b, p);
    concat2(B, N, a, p, out);
  }

  /** The two halves of each row. */
  @Operator
  public static void split2(@Dim int B, @Dim int N, @Shape("B, 2*N") float[] x, @Out @Shape("B, N") float[] lo,
      @Out @Shape("B, N") float[] hi) {
    for (@Parallel int r = 0; r < B; r++) {
      for (@Parallel int n = 0; n < N; n++) {
        lo[r * N + n] = x[r * 2 * N + n];
        hi[r * N + n] = x[r * 2 * N + N + n];
      }
    }
  }

  /** {@code a + b}. */
  @Operator
  public static void add(@Dim int N, @Shape("N") float[] a, @Shape("N") float[] b, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = a[i] + b[i];
    }
  }

  /** {@code a * b}. */
  @Operator
  public static void mul(@Dim int N, @Shape("N") float[] a, @Shape("N") float[] b, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = a[i] * b[i];
    }
  }

  /** Rows of a, then of b, side by side. */
  @Operator
  public static void concat2(@Dim int B, @Dim int N, @Shape("B, N") float[] a, @Shape("B, N") float[] b,
      @Out @Shape("B, 2*N") float[] out) {
    for (@Parallel int r = 0; r < B; r++) {
      for (@Parallel int n = 0; n < N; n++) {
        out[r * 2 * N + n] = a[r * N + n];
        out[r * 2 * N + N + n] = b[r * N + n];
      }
    }
  }

  /** {@code relu(a + b)}. */
  @Operator
  public static void addRelu(@Dim int N, @Shape("N") float[] a, @Shape("N") float[] b, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = max(a[i] + b[i], 0f);
    }
  }

  /**
   * Causal scaled dot-product scores of one head ({@code [B, T, T]} from {@code q}, {@code k} of
   * {@code [B, T, D]}), {@code -Infinity} above the diagonal.
   */
  @Operator
  public static void causalScores(@Dim int B, @Dim int T, @Dim int D, @Shape("B, T, D") float[] q,
      @Shape("B, T, D") float[] k, @Out @Shape("B, T, T") float[] scores) {
    for (@Parallel int b = 0; b < B; b++)
      for (@Parallel int i = 0; i < T; i++)
        for (@Parallel int j = 0; j < T; j++) {
          float acc = 0f;
          for (int d = 0; d < D; d++) acc += q[(b * T + i) * D + d] * k[(b * T + j) * D + d];
          scores[(b * T + i) * T + j] = j <= i ? acc / sqrt((float) D) : Float.NEGATIVE_INFINITY;
        }
  }

  /** {@code out[b, i] = sum over j of weights[b, i, j] * v[b, j]}. */
  @Operator
  public static void weightedValues(@Dim int B, @Dim int T, @Dim int D, @Shape("B, T, T") float[] weights,
      @Shape("B, T, D") float[] v, @Out @Shape("B, T, D") float[] out) {
    for (@Parallel int b = 0; b < B; b++)
      for (@Parallel int i = 0; i < T; i++)
        for (@Parallel int d = 0; d < D; d++) {
          float acc = 0f;
          for (int j = 0; j < T; j++) acc += weights[(b * T + i) * T + j] * v[(b * T + j) * D + d];
          out[(b * T + i) * D + d] = acc;
        }
  }

  /** Causal self-attention of one head: the scores, their row softmax, the weighted values. */
  @Operator
  public static void causalAttention(@Dim int B, @Dim int T, @Dim int D, @Shape("B, T, D") float[] q,
      @Shape("B, T, D") float[] k, @Shape("B, T, D") float[] v, @Out @Shape("B, T, D") float[] out) {
    float[] scores = new float[B * T * T];
    causalScores(B, T, D, q, k, scores);
    float[] weights = new float[B * T * T];
    softmax(B * T, T, scores, weights);
    weightedValues(B, T, D, weights, v, out);
  }
}
