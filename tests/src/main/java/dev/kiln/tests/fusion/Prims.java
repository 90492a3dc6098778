package dev.kiln.tests.fusion;

import static dev.kiln.KMath.*;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Reduce;
import dev.kiln.Shape;

/** Small operators that the composites in {@link Composites} are made of. */
public final class Prims {
  private Prims() {}

  /** {@code C} columns of each row of {@code x} from column {@code offset} on, times {@code scale} (zero past the row's end). */
  @Operator
  public static void columnsFrom(@Dim int B, @Dim int W, @Dim int C, int offset, int scale, @Shape("B, W") float[] x,
      @Out @Shape("B, C") float[] out) {
    for (@Parallel int b = 0; b < B; b++)
      for (@Parallel int c = 0; c < C; c++) {
        out[b * C + c] = c + offset < W ? x[b * W + c + offset] * scale : 0f;
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

  @Operator
  public static void addScalar(@Dim int N, @Shape("N") float[] x, float s, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = x[i] + s;
    }
  }

  @Operator
  public static void sigmoidMap(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = 1f / (1f + exp(-x[i]));
    }
  }

  @Operator
  public static void tanhMap(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = tanh(x[i]);
    }
  }

  @Operator
  public static void expMap(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = exp(x[i]);
    }
  }

  /** Splits each row of x [B, 4H] into four gates [B, H]. */
  @Operator
  public static void split4(@Dim int B, @Dim int H, @Shape("B, 4*H") float[] x,
      @Out @Shape("B, H") float[] a, @Out @Shape("B, H") float[] b, @Out @Shape("B, H") float[] c, @Out @Shape("B, H") float[] d) {
    for (@Parallel int r = 0; r < B; r++) {
      for (@Parallel int h = 0; h < H; h++) {
        a[r * H + h] = x[r * 4 * H + h];
        b[r * H + h] = x[r * 4 * H + H + h];
        c[r * H + h] = x[r * 4 * H + 2 * H + h];
        d[r * H + h] = x[r * 4 * H + 3 * H + h];
      }
    }
  }

  /** Splits x [2N] into its halves. */
  @Operator
  public static void split2(@Dim int N, @Shape("2*N") float[] x, @Out @Shape("N") float[] lo, @Out @Shape("N") float[] hi) {
    for (@Parallel int i = 0; i < N; i++) {
      lo[i] = x[i];
      hi[i] = x[N + i];
    }
  }

  /** out [2N] = a then b. */
  @Operator
  public static void concat2(@Dim int N, @Shape("N") float[] a, @Shape("N") float[] b, @Out @Shape("2*N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = a[i];
      out[N + i] = b[i];
    }
  }

  @Operator
  public static void rowMax(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      float m = x[b * N];
      for (int n = 1; n < N; n++) {
        m = max(m, x[b * N + n]);
      }
      out[b] = m;
    }
  }

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

  /** out[b, n] = x[b, n] - r[b]. */
  @Operator
  public static void subRow(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("B") float[] r, @Out @Shape("B, N") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int n = 0; n < N; n++) {
        out[b * N + n] = x[b * N + n] - r[b];
      }
    }
  }

  /** out[b, n] = x[b, n] / r[b]. */
  @Operator
  public static void divRow(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("B") float[] r, @Out @Shape("B, N") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int n = 0; n < N; n++) {
        out[b * N + n] = x[b * N + n] / r[b];
      }
    }
  }

  @Operator
  public static void mulScalar(@Dim int N, @Shape("N") float[] x, float s, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = x[i] * s;
    }
  }

  @Operator
  public static void square(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = x[i] * x[i];
    }
  }

  @Operator
  public static void reluMap(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = max(x[i], 0f);
    }
  }

  @Operator
  public static void rsqrtMap(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = rsqrt(x[i]);
    }
  }

  /** A loop-free elementwise function that costs more than the merger recomputes at several reads. */
  @Operator
  public static void costlyMap(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      float v = x[i];
      out[i] = tanh(v) + exp(-v * v) + sin(v) * cos(v) + log(1f + v * v) + sqrt(1f + v * v);
    }
  }

  /** out[b] = mean of row b: a sequential loop. */
  @Operator
  public static void rowMean(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      float s = 0f;
      for (int n = 0; n < N; n++) {
        s += x[b * N + n];
      }
      out[b] = s / N;
    }
  }

  /** out[b, n] = x[b, n] * r[b]: a per-row scale. */
  @Operator
  public static void mulRow(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("B") float[] r, @Out @Shape("B, N") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int n = 0; n < N; n++) {
        out[b * N + n] = x[b * N + n] * r[b];
      }
    }
  }

  /** out[b, n] = x[b, n] * g[n]: a per-column scale, broadcast over rows. */
  @Operator
  public static void mulCols(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("N") float[] g, @Out @Shape("B, N") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int n = 0; n < N; n++) {
        out[b * N + n] = x[b * N + n] * g[n];
      }
    }
  }

  /** out[b, n] = x[b, n] + bias[n]: a bias broadcast over rows. */
  @Operator
  public static void addCols(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("N") float[] bias, @Out @Shape("B, N") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int n = 0; n < N; n++) {
        out[b * N + n] = x[b * N + n] + bias[n];
      }
    }
  }

  /** out[c, r] = x[r, c]. */
  @Operator
  public static void transpose(@Dim int R, @Dim int C, @Shape("R, C") float[] x, @Out @Shape("C, R") float[] out) {
    for (@Parallel int r = 0; r < R; r++) {
      for (@Parallel int c = 0; c < C; c++) {
        out[c * R + r] = x[r * C + c];
      }
    }
  }

  /** out = x w: one worker per output element, a sequential dot product over k. */
  @Operator
  public static void matmul(@Dim int B, @Dim int K, @Dim int N, @Shape("B, K") float[] x, @Shape("K, N") float[] w,
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

  /** y = A x: one worker per row, a sequential dot product. */
  @Operator
  public static void matvec(@Dim int M, @Dim int K, @Shape("M, K") float[] a, @Shape("K") float[] x, @Out @Shape("M") float[] y) {
    for (@Parallel int m = 0; m < M; m++) {
      float acc = 0f;
      for (int k = 0; k < K; k++) {
        acc += a[m * K + k] * x[k];
      }
      y[m] = acc;
    }
  }

  /** A 3-point stencil with zero padding: reads x at i - 1, i and i + 1, the edges guarded. */
  @Operator
  public static void blur3(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      float left = i > 0 ? x[i - 1] : 0f;
      float right = i < N - 1 ? x[i + 1] : 0f;
      out[i] = 0.25f * left + 0.5f * x[i] + 0.25f * right;
    }
  }

  /** s[0] += sum(x): a @Reduce output. */
  @Operator
  public static void sumAll(@Dim int N, @Shape("N") float[] x, @Out @Reduce @Shape("1") float[] s) {
    for (@Parallel int i = 0; i < N; i++) {
      s[0] += x[i];
    }
  }

  // double precision

  @Operator
  public static void squareD(@Dim int N, @Shape("N") double[] x, @Out @Shape("N") double[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = x[i] * x[i];
    }
  }

  @Operator
  public static void rowSumD(@Dim int B, @Dim int N, @Shape("B, N") double[] x, @Out @Shape("B") double[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      double s = 0.0;
      for (int n = 0; n < N; n++) {
        s += x[b * N + n];
      }
      out[b] = s;
    }
  }

  @Operator
  public static void addScalarD(@Dim int N, @Shape("N") double[] x, double s, @Out @Shape("N") double[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = x[i] + s;
    }
  }

  @Operator
  public static void rsqrtMapD(@Dim int N, @Shape("N") double[] x, @Out @Shape("N") double[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = rsqrt(x[i]);
    }
  }

  /** out[b, n] = x[b, n] * r[b] in double. */
  @Operator
  public static void mulRowD(@Dim int B, @Dim int N, @Shape("B, N") double[] x, @Shape("B") double[] r, @Out @Shape("B, N") double[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int n = 0; n < N; n++) {
        out[b * N + n] = x[b * N + n] * r[b];
      }
    }
  }

  /** out = min(x, 1) written as a store and a conditional overwrite of the same element. */
  @Operator
  public static void clampHigh(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = x[i];
      if (x[i] > 1f) {
        out[i] = 1f;
      }
    }
  }

  /** out[i] = the last x[k] greater than x[i], else -1: an element overwritten inside a sequential loop. */
  @Operator
  public static void lastAbove(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = -1f;
      for (int k = 0; k < N; k++) {
        if (x[k] > x[i]) {
          out[i] = x[k];
        }
      }
    }
  }

  /** out[i + 1] = x[i]: the interior of a zero-padded [N + 2] array. */
  @Operator
  public static void padInto(@Dim int N, @Shape("N") float[] x, @Out @Shape("N + 2") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i + 1] = x[i];
    }
  }

  /** A "valid" 3-tap convolution over a haloed input. */
  @Operator
  public static void conv3(@Dim int N, @Shape("N + 2") float[] x, @Shape("3") float[] k, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = k[0] * x[i] + k[1] * x[i + 1] + k[2] * x[i + 2];
    }
  }

  /** out[i] = x[idx[i]]: a data-dependent read. */
  @Operator
  public static void gather(@Dim int M, @Dim int N, @Shape("M") float[] x, @Shape("N") int[] idx, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = x[idx[i]];
    }
  }

  /** out[i] = raw[i] mod M, in [0, M). */
  @Operator
  public static void wrapIndex(@Dim int N, @Dim int M, @Shape("N") int[] raw, @Out @Shape("N") int[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = (raw[i] % M + M) % M;
    }
  }

  /** out[0] = sqrt(s[0] / N): a scalar epilogue, no grid. */
  @Operator
  public static void rootMean(@Dim int N, @Shape("1") float[] s, @Out @Shape("1") float[] out) {
    out[0] = (float) Math.sqrt(s[0] / N);
  }

  /** out[0] = 1 / (r[0] + eps): a scalar epilogue, no grid. */
  @Operator
  public static void inverseScalar(float eps, @Shape("1") float[] r, @Out @Shape("1") float[] out) {
    out[0] = 1f / (r[0] + eps);
  }

  /** out[i] = x[i] - s[0] / N: a broadcast of a reduced scalar. */
  @Operator
  public static void subMean(@Dim int N, @Shape("N") float[] x, @Shape("1") float[] s, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = x[i] - s[0] / N;
    }
  }

  /** s[b] += x[b, k] over a 2-D grid: a @Reduce by rows. */
  @Operator
  public static void rowSumsReduce(@Dim int B, @Dim int K, @Shape("B, K") float[] x, @Out @Reduce @Shape("B") float[] s) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int k = 0; k < K; k++) {
        s[b] += x[b * K + k];
      }
    }
  }

  /** s[n] += x[b, n] over a 2-D grid: a @Reduce down columns (a bias's gradient). */
  @Operator
  public static void colSumsReduce(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Reduce @Shape("N") float[] s) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int n = 0; n < N; n++) {
        s[n] += x[b * N + n];
      }
    }
  }

  /** s[b, k] += x[b, h, k] over a 3-D grid: a @Reduce over the middle dimension. */
  @Operator
  public static void middleSumsReduce(@Dim int B, @Dim int H, @Dim int K, @Shape("B, H, K") float[] x,
      @Out @Reduce @Shape("B, K") float[] s) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int h = 0; h < H; h++) {
        for (@Parallel int k = 0; k < K; k++) {
          s[b * K + k] += x[(b * H + h) * K + k];
        }
      }
    }
  }

  /** out = w - rate * g: a step of gradient descent. */
  @Operator
  public static void sgdStep(@Dim int N, float rate, @Shape("N") float[] g, @Shape("N") float[] w, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = w[i] - rate * g[i];
    }
  }

  /** m[b, h] = max(m[b, h], x[b, h, k]) over a 3-D grid: a @Reduce by the first two dimensions. */
  @Operator
  public static void groupMaxReduce(@Dim int B, @Dim int H, @Dim int K, @Shape("B, H, K") float[] x,
      @Out @Reduce @Shape("B, H") float[] m) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int h = 0; h < H; h++) {
        for (@Parallel int k = 0; k < K; k++) {
          m[b * H + h] = Math.max(m[b * H + h], x[(b * H + h) * K + k]);
        }
      }
    }
  }

  /** out[b, h, k] = x[b, h, k] - m[b, h]: a per-group shift. */
  @Operator
  public static void subGroup(@Dim int B, @Dim int H, @Dim int K, @Shape("B, H, K") float[] x,
      @Shape("B, H") float[] m, @Out @Shape("B, H, K") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int h = 0; h < H; h++) {
        for (@Parallel int k = 0; k < K; k++) {
          out[(b * H + h) * K + k] = x[(b * H + h) * K + k] - m[b * H + h];
        }
      }
    }
  }

  /** An inclusive prefix sum: a grid operator with no parallel loop is a single worker. */
  @Operator
  public static void prefixSum(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    float acc = 0f;
    for (int i = 0; i < N; i++) {
      acc += x[i];
      out[i] = acc;
    }
  }

  /** Each row scaled by its sum. */
  @Operator
  public static void rowScaled(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      float s = 0f;
      for (int k = 0; k < N; k++) s += x[b * N + k];
      for (int k = 0; k < N; k++) out[b * N + k] = x[b * N + k] * s;
    }
  }

  /** Each row minus its mean. */
  @Operator
  public static void rowCentered(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      float s = 0f;
      for (int k = 0; k < N; k++) s += x[b * N + k];
      float mean = s / N;
      for (int k = 0; k < N; k++) out[b * N + k] = x[b * N + k] - mean;
    }
  }

  /** A running sum along each row. */
  @Operator
  public static void rowPrefixSum(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      float acc = 0f;
      for (int k = 0; k < N; k++) {
        acc += x[b * N + k];
        out[b * N + k] = acc;
      }
    }
  }
}
