package dev.kiln.tests.simd;

import static dev.kiln.KMath.abs;
import static dev.kiln.KMath.erf;
import static dev.kiln.KMath.exp;
import static dev.kiln.KMath.log;
import static dev.kiln.KMath.max;
import static dev.kiln.KMath.min;
import static dev.kiln.KMath.sigmoid;
import static dev.kiln.KMath.sqrt;
import static dev.kiln.KMath.tanh;

import dev.kiln.Dim;
import dev.kiln.KRandom;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Shape;

/**
 * Operators for the SIMD kernels: the first group has SIMD forms and uses every vector construct
 * (arithmetic, negation, comparisons and selects, boolean and/or/not, the vector functions, values
 * the same across a row, scalar parameters, two- and three-dimensional grids); the second group is
 * refused, one reason each, and keeps its scalar kernel.
 */
public final class SimdOps {
  private SimdOps() {}

  @Operator
  public static void arithmetic(@Dim int N, @Shape("N") float[] a, @Shape("N") float[] b, float s,
      @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = -(a[i] * s - b[i]) / (a[i] + 1.5f);
    }
  }

  @Operator
  public static void functions(@Dim int N, @Shape("N") float[] a, @Shape("N") float[] b, @Out @Shape("N") float[] y,
      @Out @Shape("N") float[] z) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = exp(a[i]) + tanh(b[i]) * sigmoid(a[i] - b[i]);
      z[i] = max(a[i], b[i]) - min(a[i], 0f) + sqrt(abs(b[i])) * erf(b[i]);
    }
  }

  @Operator
  public static void selects(@Dim int N, @Shape("N") float[] a, @Shape("N") float[] b, boolean flip,
      @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      float v = a[i] < b[i] && !(a[i] == 0f) || b[i] >= 2f ? a[i] : b[i] * 2f;
      if (a[i] != a[i] || a[i] > 100f) {
        v = -1f;
      }
      y[i] = flip ? -v : v;
    }
  }

  /** Rows: the row's scale and shift are the same for the whole vector. */
  @Operator
  public static void rows(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("B") float[] scale,
      @Shape("N") float[] shift, @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++)
      for (@Parallel int n = 0; n < N; n++) {
        y[b * N + n] = x[b * N + n] * scale[b] + shift[n] + b;
      }
  }

  /**
   * OVL's example a row at a time: each row of x in halves, y added to each, the first half and the
   * product side by side in a row of out. Its SIMD form runs each store as a loop of its own over a
   * row of at most 2048 workers (StoreStreams), the one loop over longer rows.
   */
  @Operator
  public static void rowConcat(@Dim int B, @Dim int N, @Shape("B, 2*N") float[] x, @Shape("B, N") float[] y,
      @Out @Shape("B, 2*N") float[] out) {
    for (@Parallel int r = 0; r < B; r++)
      for (@Parallel int n = 0; n < N; n++) {
        float a = x[r * 2 * N + n] + y[r * N + n];
        out[r * 2 * N + n] = a;
        out[r * 2 * N + N + n] = a * (x[r * 2 * N + N + n] + y[r * N + n]);
      }
  }

  /** Each row of x in halves, into two arrays: split too (x is read at two places in a row). */
  @Operator
  public static void rowSplit(@Dim int B, @Dim int N, @Shape("B, 2*N") float[] x, @Out @Shape("B, N") float[] lo,
      @Out @Shape("B, N") float[] hi) {
    for (@Parallel int r = 0; r < B; r++)
      for (@Parallel int n = 0; n < N; n++) {
        lo[r * N + n] = x[r * 2 * N + n] - 1f;
        hi[r * N + n] = 2f * x[r * 2 * N + N + n];
      }
  }

  /**
   * Two outputs at the index of their inputs: every array one stream in address order already, not
   * split (nor could it be: an output may be written in place of an input).
   */
  @Operator
  public static void rowPairs(@Dim int B, @Dim int N, @Shape("B, N") float[] a, @Shape("B, N") float[] b,
      @Out @Shape("B, N") float[] sum, @Out @Shape("B, N") float[] product) {
    for (@Parallel int r = 0; r < B; r++)
      for (@Parallel int n = 0; n < N; n++) {
        sum[r * N + n] = a[r * N + n] + b[r * N + n];
        product[r * N + n] = a[r * N + n] * b[r * N + n];
      }
  }

  /**
   * Index comparisons with the lane variable: a causal mask, a band with the lane on the right, an
   * offset diagonal, its complement (vector masks from the lane numbers).
   */
  @Operator
  public static void indexMasks(@Dim int R, @Dim int C, @Shape("R, C") float[] x, @Out @Shape("R, C") float[] y) {
    for (@Parallel int r = 0; r < R; r++)
      for (@Parallel int c = 0; c < C; c++) {
        float v = x[r * C + c];
        y[r * C + c] = (c <= r ? v : -1f) + (r + 2 > c ? 1f : 0f) + (c - 3 == r ? 10f : 0f) + (c != r ? 100f : 0f);
      }
  }

  /** A column block of a wider array, as the LSTM cell reads its gates. */
  @Operator
  public static void blocks(@Dim int B, @Dim int C, @Dim int H, @Shape("B, C, 2*H") float[] x,
      @Out @Shape("B, C, H") float[] y) {
    for (@Parallel int b = 0; b < B; b++)
      for (@Parallel int c = 0; c < C; c++)
        for (@Parallel int h = 0; h < H; h++) {
          int base = (b * C + c) * 2 * H;
          y[(b * C + c) * H + h] = sigmoid(x[base + h]) * tanh(x[base + H + h]);
        }
  }

  @Operator
  public static void guarded(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      if (x[i] > 0f) {
        y[i] = x[i];
      }
    }
  }

  /** Column statistics: each lane (a column) runs the loop over rows with its own carried values. */
  @Operator
  public static void columns(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("N") float[] sum,
      @Out @Shape("N") float[] peak, @Out @Shape("B, N") float[] running) {
    for (@Parallel int n = 0; n < N; n++) {
      float s = 0f;
      float m = Float.NEGATIVE_INFINITY;
      for (int b = 0; b < B; b++) {
        s += x[b * N + n] * 0.5f;
        m = max(m, x[b * N + n] - s);
        running[b * N + n] = s; // a running value stored in the loop: each lane its own
      }
      sum[n] = s;
      peak[n] = m;
    }
  }

  /**
   * Column folds (a sum starting from a parameter's element, a running maximum), then values from
   * them: the lanes form runs its loop with the rows outermost over blocks of columns.
   */
  @Operator
  public static void columnFolds(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("N") float[] w,
      @Out @Shape("N") float[] sum, @Out @Shape("N") float[] peak) {
    for (@Parallel int n = 0; n < N; n++) {
      float s = w[n];
      float m = Float.NEGATIVE_INFINITY;
      for (int b = 0; b < B; b++) {
        s += x[b * N + n] * w[n];
        m = max(m, x[b * N + n]);
      }
      sum[n] = s - m;
      peak[n] = m;
    }
  }

  /**
   * Three column loops: the first two over the same rows run in one pass, their stores after it
   * (ColumnLoops); the third starts from the first's result and gets a pass of its own.
   */
  @Operator
  public static void columnPasses(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("B, N") float[] y,
      @Shape("N") float[] w, @Out @Shape("N") float[] sx, @Out @Shape("N") float[] sy, @Out @Shape("N") float[] top) {
    for (@Parallel int n = 0; n < N; n++) {
      float s = 0f;
      for (int b = 0; b < B; b++) {
        s += x[b * N + n];
      }
      sx[n] = s;
      float t = w[n];
      for (int b = 0; b < B; b++) {
        t += y[b * N + n] * w[n];
      }
      sy[n] = t * 2f;
      float u = s;
      for (int b = 0; b < B; b++) {
        u = max(u, x[b * N + n] - y[b * N + n]);
      }
      top[n] = u;
    }
  }

  /**
   * Three column loops that need nothing of each other and a store of none of their results: the
   * launcher deals them to the threads, each over whole rows (DealtLoops). No input has an output's
   * shape, so no call runs in place (which would keep the loops together).
   */
  @Operator
  public static void columnParts(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("B, N") float[] y,
      @Out @Shape("N") float[] sx, @Out @Shape("N") float[] sy, @Out @Shape("N") float[] top,
      @Out @Shape("N") float[] rows) {
    for (@Parallel int n = 0; n < N; n++) {
      rows[n] = B;
      float s = 0f;
      for (int b = 0; b < B; b++) {
        s += x[b * N + n];
      }
      float t = 1f;
      for (int b = 0; b < B; b++) {
        t += y[b * N + n] * y[b * N + n];
      }
      float u = Float.NEGATIVE_INFINITY;
      for (int b = B / 2; b < B; b++) {
        u = max(u, x[b * N + n] - y[b * N + n]);
      }
      sx[n] = s;
      sy[n] = t * 2f;
      top[n] = u;
    }
  }

  /**
   * A weighted column sum: its derived gradient's adjoint kernel sums {@code dsum[n] * x[b, n]}
   * over the rows for {@code dw[n]}, a sum in sixteen partials, which the lanes form keeps per lane.
   */
  @Operator
  public static void columnScaled(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("N") float[] w,
      @Out @Shape("N") float[] sum) {
    for (@Parallel int n = 0; n < N; n++) {
      float s = 0f;
      for (int b = 0; b < B; b++) {
        s += x[b * N + n] * w[n];
      }
      sum[n] = s;
    }
  }

  // rows: each worker's sequential loops as vectors

  /** Softmax: a max fold, a sum fold in index order, then stores. */
  @Operator
  public static void softmax(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      float m = Float.NEGATIVE_INFINITY;
      for (int k = 0; k < N; k++) m = max(m, x[b * N + k]);
      float s = 0f;
      for (int k = 0; k < N; k++) s += exp(x[b * N + k] - m);
      for (int k = 0; k < N; k++) y[b * N + k] = exp(x[b * N + k] - m) / s;
    }
  }

  // lane sums: a sum the source writes as strided partial sums, added as vectors in that order

  /** The lanes of {@link #laneSoftmax}'s and {@link #laneNorm}'s sums (a constant as the loops' step). */
  static final int LANES = 32;

  /** Softmax whose sum is a lane sum of 32 lanes: the exponentials kept in y for the output loop. */
  @Operator
  public static void laneSoftmax(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      float m = Float.NEGATIVE_INFINITY;
      for (int k = 0; k < N; k++) m = max(m, x[b * N + k]);
      float s = 0f;
      for (int j = 0; j < LANES; j++) {
        float p = 0f;
        for (int k = j; k < N; k += LANES) p += exp(x[b * N + k] - m);
        s += p;
      }
      for (int k = 0; k < N; k++) y[b * N + k] = exp(x[b * N + k] - m) / s;
    }
  }

  /** Layer norm's two sums as lane sums, the second over terms using the first's mean. */
  @Operator
  public static void laneNorm(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      float s = 0f;
      for (int j = 0; j < LANES; j++) {
        float p = 0f;
        for (int k = j; k < N; k += LANES) p += x[b * N + k];
        s += p;
      }
      float mean = s / N;
      float v = 0f;
      for (int j = 0; j < LANES; j++) {
        float q = 0f;
        for (int k = j; k < N; k += LANES) q += (x[b * N + k] - mean) * (x[b * N + k] - mean);
        v += q;
      }
      for (int k = 0; k < N; k++) y[b * N + k] = (x[b * N + k] - mean) / sqrt(v / N + 1e-5f);
    }
  }

  /**
   * Other folds in lane nests: 48 lanes (three vectors of 16, six of 8) carrying two partials, a
   * product and a difference taken the other way round ({@code p = t - p}), totals taken as
   * {@code s - p} and {@code p * s}; 16 lanes with a maximum; 128 lanes (in passes of four vectors).
   */
  @Operator
  public static void laneFolds(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B") float[] diff,
      @Out @Shape("B") float[] prod, @Out @Shape("B") float[] most, @Out @Shape("B") float[] wide) {
    for (@Parallel int b = 0; b < B; b++) {
      float d = 1f;
      float r = 1f;
      for (int j = 0; j < 48; j++) {
        float p = 0.5f;
        float q = 1f;
        for (int k = j; k < N; k += 48) {
          p = x[b * N + k] - p;
          q *= 1f + 0.01f * x[b * N + k];
        }
        d = d - p;
        r = q * r;
      }
      diff[b] = d;
      prod[b] = r;
      float m = 0f;
      for (int j = 0; j < 16; j++) {
        float t = Float.NEGATIVE_INFINITY;
        for (int k = j; k < N; k += 16) t = max(t, x[b * N + k] * 3f);
        m += t;
      }
      most[b] = m;
      float w = 0f;
      for (int j = 0; j < 128; j++) {
        float t = 0f;
        for (int k = j; k < N; k += 128) t += x[b * N + k] * x[b * N + k];
        w += t;
      }
      wide[b] = w;
    }
  }

  /** Lane nests the SIMD kernel leaves to the scalar code: 8 lanes (not a multiple of 16), a term reading the lane. */
  @Operator
  public static void laneRefused(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B") float[] eight,
      @Out @Shape("B") float[] laneRead) {
    for (@Parallel int b = 0; b < B; b++) {
      float e = 0f;
      for (int j = 0; j < 8; j++) {
        float p = 0f;
        for (int k = j; k < N; k += 8) p += x[b * N + k];
        e += p;
      }
      eight[b] = e;
      float l = 0f;
      for (int j = 0; j < 16; j++) {
        float p = 0f;
        for (int k = j; k < N; k += 16) p += x[b * N + k] * j;
        l += p;
      }
      laneRead[b] = l;
    }
  }

  /**
   * Two loops with exp calls (so each is a method of its own), the first with two folds, the second
   * under a guard that holds in some rows only, reading values of the worker (m, s, t, c).
   */
  @Operator
  public static void weightedSoftmax(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("B") float[] c,
      @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      float m = Float.NEGATIVE_INFINITY;
      for (int k = 0; k < N; k++) m = max(m, x[b * N + k]);
      float s = 0f;
      float t = 0f;
      for (int k = 0; k < N; k++) {
        s += exp(x[b * N + k] - m);
        t += tanh(x[b * N + k]) * x[b * N + k];
      }
      if (c[b] > 0f) {
        for (int k = 0; k < N; k++) y[b * N + k] = exp(x[b * N + k] - m) / s * t + c[b];
      }
    }
  }

  /**
   * An integer division under a condition inside a vectorised loop: {@code N / b} only where
   * {@code b != 0} (the differential fuzzer found the SIMD kernel computing it ahead of its ?: and
   * dividing by zero on row 0).
   */
  @Operator
  public static void guardedDivision(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      float s = 0f;
      for (int k = 0; k < N; k++) {
        int q = b != 0 ? N / b : N;
        s += x[b * N + k] * q;
      }
      y[b] = s;
    }
  }

  /**
   * A row's maximum and minimum in one loop: the SIMD form keeps two accumulators for each (a loop
   * of max and min folds only), combined after the loop.
   */
  @Operator
  public static void rowExtremes(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B") float[] hi,
      @Out @Shape("B") float[] lo) {
    for (@Parallel int b = 0; b < B; b++) {
      float h = Float.NEGATIVE_INFINITY;
      float l = Float.POSITIVE_INFINITY;
      for (int k = 0; k < N; k++) {
        h = max(h, x[b * N + k]);
        l = min(l, x[b * N + k]);
      }
      hi[b] = h;
      lo[b] = l;
    }
  }

  /** Every fold: min, product, difference with the carried value on either side, an untouched value. */
  @Operator
  public static void folds(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("N") float[] w,
      @Out @Shape("B") float[] lo, @Out @Shape("B") float[] prod, @Out @Shape("B") float[] diff,
      @Out @Shape("B") float[] alt) {
    for (@Parallel int b = 0; b < B; b++) {
      float l = 3f;
      float p = 1f;
      float d = 0.5f;
      float a = 0.25f;
      float same = 2f;
      for (int k = 0; k < N; k++) {
        l = min(x[b * N + k] * w[k], l);
        p = p * (1f + x[b * N + k] * 0.01f);
        d = d - x[b * N + k] / (w[k] + 3f);
        a = (x[b * N + k] > 0f ? 1f : -1f) - a;
      }
      lo[b] = l * same;
      prod[b] = p;
      diff[b] = d;
      alt[b] = a;
    }
  }

  /**
   * A loop whose two stores write overlapping elements of one row: element k + 1 is written by
   * the second store in iteration k and by the first in iteration k + 1, so the first store's value
   * must win, as in the scalar loop (a vector of iterations stored one store after the other
   * would leave the second's).
   */
  @Operator
  public static void overlappingStores(@Dim int B, @Dim int N, @Shape("B, N") float[] x,
      @Out @Shape("B, 2 * N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      for (int k = 0; k < N; k++) {
        y[b * 2 * N + k] = x[b * N + k];
        y[b * 2 * N + k + 1] = 2f * x[b * N + k];
      }
    }
  }

  /** A row written by one loop and then again by the next: the second loop's values are what y keeps. */
  @Operator
  public static void rewritten(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      for (int k = 0; k < N; k++) {
        y[b * N + k] = x[b * N + k] * x[b * N + k];
      }
      for (int k = 0; k < N; k++) {
        y[b * N + k] = 3f * x[b * N + k];
      }
    }
  }

  /** A loop that runs only for some rows, over part of the row, storing under a guard. */
  @Operator
  public static void partialRows(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("B") float[] limit,
      @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      if (limit[b] > 0f) {
        for (int k = 1; k < N; k++) {
          if (x[b * N + k] < limit[b]) {
            y[b * N + k] = tanh(x[b * N + k]) + limit[b];
          }
        }
      }
    }
  }

  // refused: each keeps its scalar kernel

  /** A running sum: the carried value is used inside the loop. */
  @Operator
  public static void prefixSum(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      float s = 0f;
      for (int k = 0; k < N; k++) {
        s += x[b * N + k];
        y[b * N + k] = s;
      }
    }
  }

  @Operator
  public static void intOutput(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") int[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = (int) x[i];
    }
  }

  /**
   * Each row's first maximum marked with the row's sum, zeros elsewhere, and the sum of what comes
   * after it: a loop that carries "seen so far" ({@code seen = seen || hit}) and uses it in a store
   * and in a sum's terms (the gradient of max has this loop).
   */
  @Operator
  public static void firstMax(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] y,
      @Out @Shape("B") float[] after) {
    for (@Parallel int b = 0; b < B; b++) {
      float m = Float.NEGATIVE_INFINITY;
      for (int k = 0; k < N; k++) m = max(m, x[b * N + k]);
      float s = 0f;
      for (int k = 0; k < N; k++) s += x[b * N + k];
      boolean seen = false;
      float rest = 0f;
      for (int k = 0; k < N; k++) {
        boolean hit = x[b * N + k] == m;
        y[b * N + k] = hit && !seen ? s : 0f;
        rest += seen ? x[b * N + k] : 0f; // the elements after the first maximum
        seen = seen || hit;
      }
      after[b] = rest;
    }
  }

  @Operator
  public static void rowSum(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      float s = 0f;
      for (int n = 0; n < N; n++) s += x[b * N + n];
      y[b] = s;
    }
  }

  /**
   * Each row standardised by Welford's running mean and spread: a scalar recurrence (each update
   * waits on the last through the mean), then a vectorised pass. Four rows run side by side, each
   * row's chain beside the others'.
   */
  @Operator
  public static void runningStats(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      float n = 0f;
      float mean = 0f;
      float m2 = 0f;
      for (int k = 0; k < N; k++) {
        float n1 = n + 1f;
        float d = x[b * N + k] - mean;
        mean = mean + d / n1;
        m2 = m2 + d * (x[b * N + k] - mean);
        n = n1;
      }
      float scale = 1f / sqrt(m2 / n + 1e-5f);
      for (int k = 0; k < N; k++) {
        y[b * N + k] = (x[b * N + k] - mean) * scale;
      }
    }
  }

  @Operator
  public static void strided(@Dim int N, @Shape("2*N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = x[2 * i] + x[2 * i + 1];
    }
  }

  @Operator
  public static void withLog(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = log(x[i]);
    }
  }

  @Operator
  public static void indexAsValue(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = x[i] * i;
    }
  }

  /** A division by a value every lane shares. */
  @Operator
  public static void divided(@Dim int N, @Shape("N") float[] x, float d, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = x[i] / d;
    }
  }

  /** Dropout: KRandom.uniform at the worker's own index, the seed and stream shared by the lanes. */
  @Operator
  public static void drop(@Dim int N, @Shape("N") float[] x, int seed, float p, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = KRandom.uniform(seed, 4, i) < p ? 0f : x[i] / (1f - p);
    }
  }

  /** Draws at b*N + i + offset, stream b: consecutive indices in each row, a stream a row. */
  @Operator
  public static void drawRows(@Dim int B, @Dim int N, int seed, int offset, @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int i = 0; i < N; i++) {
        y[b * N + i] = KRandom.uniform(seed, b, b * N + i + offset);
      }
    }
  }

  /** Draws at every other index: not consecutive, so no vector form. */
  @Operator
  public static void drawStrided(@Dim int N, int seed, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = KRandom.uniform(seed, 0, 2 * i);
    }
  }

  /** A normal draw: Box and Muller on two words, KRandom's own float logarithm and cosine, per lane. */
  @Operator
  public static void drawNormal(@Dim int N, int seed, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = KRandom.normal(seed, 0, i);
    }
  }

}
