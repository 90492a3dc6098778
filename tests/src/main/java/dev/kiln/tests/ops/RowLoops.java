package dev.kiln.tests.ops;

import static dev.kiln.KMath.*;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Shape;

/**
 * Workers whose sequential loops walk a row or a column: on CUDA, row kernels (a block a worker,
 * its threads sharing each loop) and column kernels (32 threads a worker), and the loops that must
 * stay one thread a worker. Each fold the shared loops know (sums, differences, max, min, "seen so
 * far"), in float, double, int and long, a reversed walk, a guarded loop, stores between loops;
 * the CUDA tests check each against the plain Java.
 */
public final class RowLoops {
  private RowLoops() {}

  /** Softmax over each row: max, sum of exponentials, outputs (a row kernel). */
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

  /**
   * {@code exp(x - m) / (1 + sum exp(x - m))}: the 1 does not scale with a shift of the row maximum
   * {@code m}, so unlike softmax's, this maximum takes an adjoint, passed to its first element.
   */
  @Operator
  public static void softmaxPlusOne(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      float m = Float.NEGATIVE_INFINITY;
      for (int k = 0; k < N; k++) m = max(m, x[b * N + k]);
      float s = 0f;
      for (int k = 0; k < N; k++) s += exp(x[b * N + k] - m);
      for (int k = 0; k < N; k++) y[b * N + k] = exp(x[b * N + k] - m) / (1f + s);
    }
  }

  /** The first maximum of each row marked 1, the others 0: a loop carrying "seen so far". */
  @Operator
  public static void firstMax(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      float m = Float.NEGATIVE_INFINITY;
      for (int k = 0; k < N; k++) m = max(m, x[b * N + k]);
      boolean seen = false;
      for (int k = 0; k < N; k++) {
        boolean hit = x[b * N + k] >= m;
        y[b * N + k] = hit && !seen ? 1f : 0f;
        seen = seen || hit;
      }
    }
  }

  /** An int difference fold from 100, and an int minimum: exact in any order. */
  @Operator
  public static void countBelow(@Dim int B, @Dim int N, @Shape("B, N") int[] x, int t, @Out @Shape("B") int[] below,
      @Out @Shape("B") int[] least) {
    for (@Parallel int b = 0; b < B; b++) {
      int c = 100;
      int m = Integer.MAX_VALUE;
      for (int k = 0; k < N; k++) {
        c -= x[b * N + k] < t ? 1 : 0;
        m = Math.min(m, x[b * N + k]);
      }
      below[b] = c;
      least[b] = m;
    }
  }

  /** A double sum of squares each row; the loop also stores. */
  @Operator
  public static void rowSquares(@Dim int B, @Dim int N, @Shape("B, N") double[] x, @Out @Shape("B") double[] squares,
      @Out @Shape("B, N") double[] twice) {
    for (@Parallel int b = 0; b < B; b++) {
      double s = 0.0;
      for (int k = 0; k < N; k++) {
        double v = x[b * N + k];
        s += v * v;
        twice[b * N + k] = 2.0 * v;
      }
      squares[b] = s;
    }
  }

  /** A long sum of rounded values each row: exact in any order. */
  @Operator
  public static void rowRounded(@Dim int B, @Dim int N, @Shape("B, N") double[] x, @Out @Shape("B") long[] rounded) {
    for (@Parallel int b = 0; b < B; b++) {
      long r = 0L;
      for (int k = 0; k < N; k++) r += (long) (x[b * N + k] * 1000.0);
      rounded[b] = r;
    }
  }

  /**
   * Each row scaled by its largest magnitude, written back to front (a store walking with stride
   * -1), with a store of the worker's own before the loops.
   */
  @Operator
  public static void reversedScale(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] y,
      @Out @Shape("B") float[] top) {
    for (@Parallel int b = 0; b < B; b++) {
      float one = 1f;
      top[b] = one;
      float m = 0f;
      for (int k = 0; k < N; k++) m = max(m, abs(x[b * N + k]));
      for (int k = 0; k < N; k++) y[b * N + (N - 1 - k)] = 2f * x[b * N + k] / (m + one);
      top[b] = m;
    }
  }

  /** A loop that runs only for some rows (a guard the whole block shares). */
  @Operator
  public static void oddRowSums(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      float s = -1f;
      if (b % 2 == 1) {
        for (int k = 0; k < N; k++) s += x[b * N + k];
      }
      y[b] = s;
    }
  }

  /** Column sums and maxima: loops that walk down a column and only fold (a column kernel). */
  @Operator
  public static void columnStats(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("N") float[] sums,
      @Out @Shape("N") float[] maxima) {
    for (@Parallel int j = 0; j < N; j++) {
      float s = 0f;
      float m = Float.NEGATIVE_INFINITY;
      for (int i = 0; i < B; i++) {
        s += x[i * N + j];
        m = max(m, x[i * N + j]);
      }
      sums[j] = s;
      maxima[j] = m;
    }
  }

  /** A running sum stored as it goes: each iteration needs the one before (one thread a row). */
  @Operator
  public static void cumsum(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      float acc = 0f;
      for (int k = 0; k < N; k++) {
        acc += x[b * N + k];
        y[b * N + k] = acc;
      }
    }
  }

  /** Columns scaled by their sums: the second loop stores while walking down a column (one thread a column). */
  @Operator
  public static void columnNormalize(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] y) {
    for (@Parallel int j = 0; j < N; j++) {
      float s = 1f;
      for (int i = 0; i < B; i++) s += abs(x[i * N + j]);
      for (int i = 0; i < B; i++) y[i * N + j] = x[i * N + j] / s;
    }
  }

  /**
   * Layer norm whose two sums are lane sums (32 strided partial sums, LANGUAGE.md): on CUDA a row
   * kernel sharing each sum's terms among its threads, as for a plain loop.
   */
  @Operator
  public static void laneNorm(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      float s = 0f;
      for (int j = 0; j < 32; j++) {
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
      for (int k = 0; k < N; k++) y[b * N + k] = (x[b * N + k] - mean) * rsqrt(v / N + 1e-5f);
    }
  }

  /** A lane nest of products: not a sum of sums, so one thread a worker on CUDA, in the source's order. */
  @Operator
  public static void laneProducts(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      float r = 1f;
      for (int j = 0; j < 16; j++) {
        float q = 1f;
        for (int k = j; k < N; k += 16) q *= 1f + 0.01f * x[b * N + k];
        r *= q;
      }
      y[b] = r;
    }
  }
}
