package dev.kiln.lib;

import dev.kiln.Dim;
import dev.kiln.KMath;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Shape;

/**
 * Row operators on a row-major {@code [B, N]} matrix: reductions of each row (one worker per row, a
 * sequential loop over the row) and broadcasts of a per-row ({@code [B]}) or per-column ({@code
 * [N]}) vector over it (one worker per element).
 */
public final class Rows {
  private Rows() {}

  /** {@code out[b] = max over n of x[b, n]} ({@code -Infinity} for an empty row). */
  @Operator
  public static void rowMax(
      @Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      float m = Float.NEGATIVE_INFINITY;
      for (int n = 0; n < N; n++) {
        m = KMath.max(m, x[b * N + n]);
      }
      out[b] = m;
    }
  }

  /**
   * Each row's largest element and its column: {@code max[b] = x[b, index[b]]}, the first column of
   * the largest value in order of n (a value replaces the best so far when it is greater, so ties go
   * to the first, and a NaN is the result only in column 0, where nothing replaces it); {@code
   * -Infinity} and {@code -1} for an empty row. The running best is a record ({@link Best}), which
   * Kiln keeps as two values.
   */
  @Operator
  public static void rowArgMax(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B") float[] max,
      @Out @Shape("B") int[] index) {
    for (@Parallel int b = 0; b < B; b++) {
      Best best = new Best(Float.NEGATIVE_INFINITY, -1);
      for (int n = 0; n < N; n++) {
        best = best.offer(x[b * N + n], n);
      }
      max[b] = best.value();
      index[b] = best.index();
    }
  }

  /** The best value of a row so far and its column ({@code -1}: none yet). */
  public record Best(float value, int index) {
    /** This, or {@code (v, n)} when there is none yet or {@code v} is greater. */
    public Best offer(float v, int n) {
      return index < 0 || v > value ? new Best(v, n) : this;
    }
  }

  /**
   * The lanes of the library's row sums (softmax's, layer norm's): a row's sum written as this
   * many strided partial sums, {@code for (j < LANES) { p = 0; for (k = j; k < N; k += LANES) p +=
   * t(k); s += p; }}, which a SIMD kernel adds as vectors in exactly the source's order ("Lane
   * sums" in LANGUAGE.md). 32 lanes are two AVX-512 vectors or four AVX2 ones: independent chains
   * of adds, so the sum runs at the vectors' speed.
   */
  public static final int LANES = 32;

  /** {@code out[b] = sum over n of x[b, n]}, added in order of n. */
  @Operator
  public static void rowSum(
      @Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      float s = 0f;
      for (int n = 0; n < N; n++) {
        s += x[b * N + n];
      }
      out[b] = s;
    }
  }

  /** {@code out[b] = (sum over n of x[b, n]) / N} ({@code NaN} for an empty row). */
  @Operator
  public static void rowMean(
      @Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      float s = 0f;
      for (int n = 0; n < N; n++) {
        s += x[b * N + n];
      }
      out[b] = s / N;
    }
  }

  /** {@code out[b, n] = x[b, n] + r[b]}. */
  @Operator
  public static void addRow(
      @Dim int B,
      @Dim int N,
      @Shape("B, N") float[] x,
      @Shape("B") float[] r,
      @Out @Shape("B, N") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int n = 0; n < N; n++) {
        out[b * N + n] = x[b * N + n] + r[b];
      }
    }
  }

  /** {@code out[b, n] = x[b, n] - r[b]}. */
  @Operator
  public static void subRow(
      @Dim int B,
      @Dim int N,
      @Shape("B, N") float[] x,
      @Shape("B") float[] r,
      @Out @Shape("B, N") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int n = 0; n < N; n++) {
        out[b * N + n] = x[b * N + n] - r[b];
      }
    }
  }

  /** {@code out[b, n] = x[b, n] * r[b]}. */
  @Operator
  public static void mulRow(
      @Dim int B,
      @Dim int N,
      @Shape("B, N") float[] x,
      @Shape("B") float[] r,
      @Out @Shape("B, N") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int n = 0; n < N; n++) {
        out[b * N + n] = x[b * N + n] * r[b];
      }
    }
  }

  /** {@code out[b, n] = x[b, n] / r[b]}. */
  @Operator
  public static void divRow(
      @Dim int B,
      @Dim int N,
      @Shape("B, N") float[] x,
      @Shape("B") float[] r,
      @Out @Shape("B, N") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int n = 0; n < N; n++) {
        out[b * N + n] = x[b * N + n] / r[b];
      }
    }
  }

  /** {@code out[b, n] = x[b, n] + v[n]}. */
  @Operator
  public static void addCols(
      @Dim int B,
      @Dim int N,
      @Shape("B, N") float[] x,
      @Shape("N") float[] v,
      @Out @Shape("B, N") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int n = 0; n < N; n++) {
        out[b * N + n] = x[b * N + n] + v[n];
      }
    }
  }

  /** {@code out[b, n] = x[b, n] * v[n]}. */
  @Operator
  public static void mulCols(
      @Dim int B,
      @Dim int N,
      @Shape("B, N") float[] x,
      @Shape("N") float[] v,
      @Out @Shape("B, N") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int n = 0; n < N; n++) {
        out[b * N + n] = x[b * N + n] * v[n];
      }
    }
  }
}
