package dev.kiln.tests.gradients;

import static dev.kiln.KMath.*;

import dev.kiln.Dim;
import dev.kiln.KMath;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Shape;

/**
 * Operators written to exercise Kiln's automatic gradients: strided and dilated index maps, running
 * maxima, broadcasts, guarded neighbour reads, transposes, the math functions with a derivative
 * (and floor, which has none), and composites whose temporaries and inputs are read by several
 * calls. Each is the plain loop a user would write; {@code GradientCheckTest} checks every {@code
 * fGrad} against finite differences of it.
 */
public final class Gradients {
  private Gradients() {}

  // ---------------------------------------------------------------- index maps

  /**
   * PlaidML's example: a 2-D convolution with stride 3 and dilation 2, {@code y[co, oh, ow] =
   * sum_{ci, kh, kw} x[ci, 3 oh + 2 kh, 3 ow + 2 kw] k[co, ci, kh, kw]}. The input's extents are
   * {@code 3*OH + 2*KH - 4} (and likewise for the width): exactly the rows the last output row's
   * window reaches, so every read is in bounds; rows such as 1 are read by no window and get a
   * zero gradient.
   */
  @Operator
  public static void conv2dStrided(@Dim int CI, @Dim int CO, @Dim int OH, @Dim int OW, @Dim int KH, @Dim int KW,
      @Shape("CI, 3*OH + 2*KH - 4, 3*OW + 2*KW - 4") float[] x, @Shape("CO, CI, KH, KW") float[] k,
      @Out @Shape("CO, OH, OW") float[] y) {
    int H = 3 * OH + 2 * KH - 4;
    int W = 3 * OW + 2 * KW - 4;
    for (@Parallel int co = 0; co < CO; co++) {
      for (@Parallel int oh = 0; oh < OH; oh++) {
        for (@Parallel int ow = 0; ow < OW; ow++) {
          float acc = 0f;
          for (int ci = 0; ci < CI; ci++) {
            for (int kh = 0; kh < KH; kh++) {
              for (int kw = 0; kw < KW; kw++) {
                acc += x[ci * H * W + (oh * 3 + kh * 2) * W + ow * 3 + kw * 2]
                    * k[((co * CI + ci) * KH + kh) * KW + kw];
              }
            }
          }
          y[(co * OH + oh) * OW + ow] = acc;
        }
      }
    }
  }

  /**
   * {@link #conv2dStrided} with one accumulator per loop level ({@code acc += row}, {@code row +=
   * ...}): the same sums, in the same order, each carried value a plain sum over its own loop.
   */
  @Operator
  public static void conv2dStridedLevels(@Dim int CI, @Dim int CO, @Dim int OH, @Dim int OW, @Dim int KH,
      @Dim int KW, @Shape("CI, 3*OH + 2*KH - 4, 3*OW + 2*KW - 4") float[] x, @Shape("CO, CI, KH, KW") float[] k,
      @Out @Shape("CO, OH, OW") float[] y) {
    int H = 3 * OH + 2 * KH - 4;
    int W = 3 * OW + 2 * KW - 4;
    for (@Parallel int co = 0; co < CO; co++) {
      for (@Parallel int oh = 0; oh < OH; oh++) {
        for (@Parallel int ow = 0; ow < OW; ow++) {
          float acc = 0f;
          for (int ci = 0; ci < CI; ci++) {
            float plane = 0f;
            for (int kh = 0; kh < KH; kh++) {
              float row = 0f;
              for (int kw = 0; kw < KW; kw++) {
                row += x[ci * H * W + (oh * 3 + kh * 2) * W + ow * 3 + kw * 2]
                    * k[((co * CI + ci) * KH + kh) * KW + kw];
              }
              plane += row;
            }
            acc += plane;
          }
          y[(co * OH + oh) * OW + ow] = acc;
        }
      }
    }
  }

  /**
   * A 3x3 max pool with stride 2 (overlapping windows: a border element belongs to two windows),
   * as a running maximum over the window in two sequential loops.
   */
  @Operator
  public static void maxPool3s2(@Dim int C, @Dim int OH, @Dim int OW,
      @Shape("C, 2*OH + 1, 2*OW + 1") float[] x, @Out @Shape("C, OH, OW") float[] y) {
    int W = 2 * OW + 1;
    int plane = (2 * OH + 1) * W;
    for (@Parallel int c = 0; c < C; c++) {
      for (@Parallel int oh = 0; oh < OH; oh++) {
        for (@Parallel int ow = 0; ow < OW; ow++) {
          float m = Float.NEGATIVE_INFINITY;
          for (int dy = 0; dy < 3; dy++) {
            for (int dx = 0; dx < 3; dx++) {
              m = Math.max(m, x[c * plane + (2 * oh + dy) * W + 2 * ow + dx]);
            }
          }
          y[(c * OH + oh) * OW + ow] = m;
        }
      }
    }
  }

  /** {@link #maxPool3s2} with the three taps of a window row written out: one sequential loop. */
  @Operator
  public static void maxPool3s2Rows(@Dim int C, @Dim int OH, @Dim int OW,
      @Shape("C, 2*OH + 1, 2*OW + 1") float[] x, @Out @Shape("C, OH, OW") float[] y) {
    int W = 2 * OW + 1;
    int plane = (2 * OH + 1) * W;
    for (@Parallel int c = 0; c < C; c++) {
      for (@Parallel int oh = 0; oh < OH; oh++) {
        for (@Parallel int ow = 0; ow < OW; ow++) {
          float m = Float.NEGATIVE_INFINITY;
          for (int dy = 0; dy < 3; dy++) {
            int p = c * plane + (2 * oh + dy) * W + 2 * ow;
            m = Math.max(m, Math.max(x[p], Math.max(x[p + 1], x[p + 2])));
          }
          y[(c * OH + oh) * OW + ow] = m;
        }
      }
    }
  }

  /** {@code log(sum_k exp(x[r, k]))} per row, the stable way: a running maximum, then a sum of exponentials. */
  @Operator
  public static void logSumExp(@Dim int R, @Dim int N, @Shape("R, N") float[] x, @Out @Shape("R") float[] out) {
    for (@Parallel int r = 0; r < R; r++) {
      float m = Float.NEGATIVE_INFINITY;
      for (int k = 0; k < N; k++) {
        m = KMath.max(m, x[r * N + k]);
      }
      float s = 0f;
      for (int k = 0; k < N; k++) {
        s += exp(x[r * N + k] - m);
      }
      out[r] = m + log(s);
    }
  }

  /** Layer normalisation of each row in double, with a per-column scale and shift and a scalar epsilon. */
  @Operator
  public static void layerNormD(@Dim int R, @Dim int N, @Shape("R, N") double[] x, @Shape("N") double[] gamma,
      @Shape("N") double[] beta, double eps, @Out @Shape("R, N") double[] out) {
    for (@Parallel int r = 0; r < R; r++) {
      double mean = 0.0;
      for (int k = 0; k < N; k++) {
        mean += x[r * N + k];
      }
      mean = mean / N;
      double var = 0.0;
      for (int k = 0; k < N; k++) {
        double d = x[r * N + k] - mean;
        var += d * d;
      }
      var = var / N;
      double inv = 1.0 / Math.sqrt(var + eps);
      for (int k = 0; k < N; k++) {
        out[r * N + k] = (x[r * N + k] - mean) * inv * gamma[k] + beta[k];
      }
    }
  }

  /** Softmax of each row in double: running maximum, sum of exponentials, divide. */
  @Operator
  public static void softmaxD(@Dim int R, @Dim int N, @Shape("R, N") double[] x, @Out @Shape("R, N") double[] out) {
    for (@Parallel int r = 0; r < R; r++) {
      double m = Double.NEGATIVE_INFINITY;
      for (int k = 0; k < N; k++) {
        m = Math.max(m, x[r * N + k]);
      }
      double s = 0.0;
      for (int k = 0; k < N; k++) {
        s += Math.exp(x[r * N + k] - m);
      }
      for (int k = 0; k < N; k++) {
        out[r * N + k] = Math.exp(x[r * N + k] - m) / s;
      }
    }
  }

  /**
   * Log-softmax of each row: {@code x - m - log(sum exp(x - m))}, the same for every value of the
   * row maximum {@code m}, so its derived gradient passes {@code m} nothing ({@code
   * ShiftInvariance}) and never walks the row for the maximum's element.
   */
  @Operator
  public static void logSoftmax(@Dim int R, @Dim int N, @Shape("R, N") float[] x, @Out @Shape("R, N") float[] out) {
    for (@Parallel int r = 0; r < R; r++) {
      float m = Float.NEGATIVE_INFINITY;
      for (int k = 0; k < N; k++) {
        m = max(m, x[r * N + k]);
      }
      float s = 0f;
      for (int k = 0; k < N; k++) {
        s += exp(x[r * N + k] - m);
      }
      float logS = log(s);
      for (int k = 0; k < N; k++) {
        out[r * N + k] = x[r * N + k] - m - logS;
      }
    }
  }

  /**
   * Softmax at temperature {@code t}: {@code exp((x - m) / t) / sum}. A shift of {@code m} by
   * {@code c} moves every exponent by {@code -c / t}, so the outputs do not move and {@code m} takes
   * no adjoint here either.
   */
  @Operator
  public static void softmaxAt(@Dim int R, @Dim int N, @Shape("R, N") float[] x, float t,
      @Out @Shape("R, N") float[] out) {
    for (@Parallel int r = 0; r < R; r++) {
      float m = Float.NEGATIVE_INFINITY;
      for (int k = 0; k < N; k++) {
        m = max(m, x[r * N + k]);
      }
      float s = 0f;
      for (int k = 0; k < N; k++) {
        s += exp((x[r * N + k] - m) / t);
      }
      for (int k = 0; k < N; k++) {
        out[r * N + k] = exp((x[r * N + k] - m) / t) / s;
      }
    }
  }

  /**
   * {@code exp((x - m) * x) / sum}: each exponent moves by {@code -c * x[k]}, a different multiple
   * of a shift in every term, so the outputs move with {@code m} and it keeps its adjoint.
   */
  @Operator
  public static void softmaxOfScaledShifts(@Dim int R, @Dim int N, @Shape("R, N") float[] x,
      @Out @Shape("R, N") float[] out) {
    for (@Parallel int r = 0; r < R; r++) {
      float m = Float.NEGATIVE_INFINITY;
      for (int k = 0; k < N; k++) {
        m = max(m, x[r * N + k]);
      }
      float s = 0f;
      for (int k = 0; k < N; k++) {
        s += exp((x[r * N + k] - m) * x[r * N + k]);
      }
      for (int k = 0; k < N; k++) {
        out[r * N + k] = exp((x[r * N + k] - m) * x[r * N + k]) / s;
      }
    }
  }

  /**
   * Each row's exponentials relative to its maximum, not normalised: these move with the maximum,
   * so the gradient must pass through it (to the maximum's element) and does.
   */
  @Operator
  public static void expFromMax(@Dim int R, @Dim int N, @Shape("R, N") float[] x, @Out @Shape("R, N") float[] out) {
    for (@Parallel int r = 0; r < R; r++) {
      float m = Float.NEGATIVE_INFINITY;
      for (int k = 0; k < N; k++) {
        m = max(m, x[r * N + k]);
      }
      for (int k = 0; k < N; k++) {
        out[r * N + k] = exp(x[r * N + k] - m);
      }
    }
  }

  /**
   * Softmax with the sum of shifted values beside it: {@code out2 = sum(x - m)} moves by {@code -N}
   * times a shift of {@code m}, so the maximum's gradient is not zero here although {@code out}'s is.
   */
  @Operator
  public static void softmaxAndShiftedSum(@Dim int R, @Dim int N, @Shape("R, N") float[] x,
      @Out @Shape("R, N") float[] out, @Out @Shape("R") float[] out2) {
    for (@Parallel int r = 0; r < R; r++) {
      float m = Float.NEGATIVE_INFINITY;
      for (int k = 0; k < N; k++) {
        m = max(m, x[r * N + k]);
      }
      float s = 0f;
      float t = 0f;
      for (int k = 0; k < N; k++) {
        s += exp(x[r * N + k] - m);
        t += x[r * N + k] - m;
      }
      for (int k = 0; k < N; k++) {
        out[r * N + k] = exp(x[r * N + k] - m) / s;
      }
      out2[r] = t;
    }
  }

  // ---------------------------------------------------------------- broadcasts

  /** A bias vector added to every row: {@code y[b, n] = x[b, n] + bias[n]} (dbias sums over rows). */
  @Operator
  public static void addRowBias(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("N") float[] bias,
      @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int n = 0; n < N; n++) {
        y[b * N + n] = x[b * N + n] + bias[n];
      }
    }
  }

  /** A column of scales, one per row: {@code y[b, n] = s[b] x[b, n]} (ds sums along each row). */
  @Operator
  public static void scaleByColumn(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("B") float[] s,
      @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int n = 0; n < N; n++) {
        y[b * N + n] = s[b] * x[b * N + n];
      }
    }
  }

  /** Both broadcasts in one: {@code y[b, n] = (x[b, n] + bias[n]) s[b]}. */
  @Operator
  public static void biasThenScale(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("N") float[] bias,
      @Shape("B") float[] s, @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int n = 0; n < N; n++) {
        y[b * N + n] = (x[b * N + n] + bias[n]) * s[b];
      }
    }
  }

  /**
   * A nonlinear 3-point stencil with zero padding: x is read at i - 1 (guarded by {@code ?:}), at i
   * and at i + 1 (guarded by an {@code if}), so dx[j] gathers from three workers; the weights w are
   * read by every worker.
   */
  @Operator
  public static void stencil3(@Dim int N, @Shape("N") float[] x, @Shape("3") float[] w, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      float left = i > 0 ? x[i - 1] : 0f;
      float right = 0f;
      if (i < N - 1) {
        right = x[i + 1];
      }
      y[i] = w[0] * left * x[i] + w[1] * sin(x[i]) + w[2] * right * right;
    }
  }

  /** A transpose with a per-column scale: {@code y[c, r] = x[r, c] s[c]}. */
  @Operator
  public static void transposeScale(@Dim int R, @Dim int C, @Shape("R, C") float[] x, @Shape("C") float[] s,
      @Out @Shape("C, R") float[] y) {
    for (@Parallel int c = 0; c < C; c++) {
      for (@Parallel int r = 0; r < R; r++) {
        y[c * R + r] = x[r * C + c] * s[c];
      }
    }
  }

  // ---------------------------------------------------------------- math

  /** {@code x^p} with a variable exponent (NaN for negative x and a fractional p: such points are not checked). */
  @Operator
  public static float powVar(float x, float p) {
    return pow(x, p);
  }

  /** The polar form of (x, y): angle plus half the radius. */
  @Operator
  public static float polar(float y, float x) {
    return (float) Math.atan2(y, x) + 0.5f * (float) Math.hypot(x, y);
  }

  /** {@code log1p(x^2) + expm1(x / 2)}. */
  @Operator
  public static float logExpM1(float x) {
    return (float) Math.log1p(x * x) + (float) Math.expm1(0.5f * x);
  }

  /** {@code sin(x) cos(w x)}. */
  @Operator
  public static float sinCos(float x, float w) {
    return sin(x) * cos(w * x);
  }

  /** abs, and the two-argument max and min: {@code |a| max(a, b) - min(a, b / 2)}. */
  @Operator
  public static float absMinMax(float a, float b) {
    return Math.abs(a) * Math.max(a, b) - Math.min(a, 0.5f * b);
  }

  /** A division by an input: {@code (a + 1) / b}. */
  @Operator
  public static float ratio(float a, float b) {
    return (a + 1f) / b;
  }

  /** A staircase plus a slope: floor passes no gradient, so the derivative is 0.1. */
  @Operator
  public static float quantize(float x) {
    return (float) Math.floor(4f * x) * 0.25f + 0.1f * x;
  }

  /** All of the above in one grid operator over arrays, in double. */
  @Operator
  public static void mathMix(@Dim int N, @Shape("N") double[] a, @Shape("N") double[] b,
      @Out @Shape("N") double[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      double p = Math.pow(Math.abs(a[i]) + 0.5, b[i]);
      double t = Math.atan2(a[i], b[i]) + Math.hypot(a[i], b[i]);
      double l = Math.log1p(a[i] * a[i]) + Math.expm1(0.5 * b[i]);
      double s = Math.sin(a[i]) * Math.cos(b[i]);
      double m = Math.max(a[i], b[i]) - Math.min(a[i], 0.5 * b[i]);
      double q = Math.floor(3.0 * a[i]) * b[i] + a[i] / b[i];
      y[i] = p + t + l + s + m + q;
    }
  }

  // ---------------------------------------------------------------- composites and their parts

  @Operator
  public static void tanhMap(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = tanh(x[i]);
    }
  }

  @Operator
  public static void sigmoidMap(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = 1f / (1f + exp(-x[i]));
    }
  }

  @Operator
  public static void add(@Dim int N, @Shape("N") float[] a, @Shape("N") float[] b, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = a[i] + b[i];
    }
  }

  @Operator
  public static void mul(@Dim int N, @Shape("N") float[] a, @Shape("N") float[] b, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = a[i] * b[i];
    }
  }

  /** The sum of each row of x [B, N]. */
  @Operator
  public static void rowSum(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      float s = 0f;
      for (int n = 0; n < N; n++) {
        s += x[b * N + n];
      }
      out[b] = s;
    }
  }

  /** Each row of x [B, N] times its own r[b]. */
  @Operator
  public static void mulRow(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("B") float[] r,
      @Out @Shape("B, N") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int n = 0; n < N; n++) {
        out[b * N + n] = x[b * N + n] * r[b];
      }
    }
  }

  @Operator
  public static void transpose(@Dim int R, @Dim int C, @Shape("R, C") float[] x, @Out @Shape("C, R") float[] out) {
    for (@Parallel int c = 0; c < C; c++) {
      for (@Parallel int r = 0; r < R; r++) {
        out[c * R + r] = x[r * C + c];
      }
    }
  }

  /**
   * The temporary {@code t = tanh(x)} is read by three calls (a row sum, a row scale and a product),
   * so its gradient sums three contributions: {@code out = t * rowSum(t) + t * y}.
   */
  @Operator
  public static void tripleRead(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("B, N") float[] y,
      @Out @Shape("B, N") float[] out) {
    int n = B * N;
    float[] t = new float[n];
    tanhMap(n, x, t);
    float[] s = new float[B];
    rowSum(B, N, t, s);
    float[] u = new float[n];
    mulRow(B, N, t, s, u);
    float[] v = new float[n];
    mul(n, t, y, v);
    add(n, u, v, out);
  }

  /** Swish from parts: the input x is read by two calls, {@code out = x * sigmoid(x)}. */
  @Operator
  public static void swishParts(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    float[] s = new float[N];
    sigmoidMap(N, x, s);
    mul(N, x, s, out);
  }

  /** The input a is read by two calls through two index maps: {@code out = a + a^T}. */
  @Operator
  public static void symmetrize(@Dim int N, @Shape("N, N") float[] a, @Out @Shape("N, N") float[] out) {
    int nn = N * N;
    float[] t = new float[nn];
    transpose(N, N, a, t);
    add(nn, a, t, out);
  }

  /**
   * Even and odd elements written by two stores of one loop, each element once: the gradient is
   * derived (the stores' indices, 2k and 2k + 1, never meet).
   */
  @Operator
  public static void evenOdd(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, 2 * N") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      for (int k = 0; k < N; k++) {
        out[b * 2 * N + 2 * k] = x[b * N + k] * x[b * N + k];
        out[b * 2 * N + 2 * k + 1] = tanh(x[b * N + k]);
      }
    }
  }

  /**
   * Rows j of width 2W, each the pair of halves two stores write, under a loop over j: the halves
   * interleave and never meet, so the gradient is derived.
   */
  @Operator
  public static void interleavedHalves(@Dim int B, @Dim int W, @Shape("B, 2, W") float[] x,
      @Out @Shape("B, 4 * W") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      for (int j = 0; j < 2; j++) {
        for (int k = 0; k < W; k++) {
          out[b * 4 * W + j * 2 * W + k] = x[b * 2 * W + j * W + k] * (j + 1);
          out[b * 4 * W + j * 2 * W + W + k] = sigmoid(x[b * 2 * W + j * W + k]);
        }
      }
    }
  }
}
