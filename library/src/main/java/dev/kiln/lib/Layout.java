package dev.kiln.lib;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Shape;

/**
 * Data movement on row-major matrices: splits and concatenations along the last dimension, a
 * transpose and a column slice. Each worker copies whole elements; nothing is computed.
 *
 * <p>The grid variable of the row dimension is {@code r} here, since {@code b} names an array in
 * {@link #concat2} and {@link #split4}.
 */
public final class Layout {
  private Layout() {}

  /** {@code lo[r, n] = x[r, n]} and {@code hi[r, n] = x[r, N + n]}: the two halves of each row. */
  @Operator
  public static void split2(
      @Dim int B,
      @Dim int N,
      @Shape("B, 2*N") float[] x,
      @Out @Shape("B, N") float[] lo,
      @Out @Shape("B, N") float[] hi) {
    for (@Parallel int r = 0; r < B; r++) {
      for (@Parallel int n = 0; n < N; n++) {
        lo[r * N + n] = x[r * 2 * N + n];
        hi[r * N + n] = x[r * 2 * N + N + n];
      }
    }
  }

  /** {@code out[r, n] = a[r, n]} and {@code out[r, N + n] = b[r, n]}: rows placed side by side. */
  @Operator
  public static void concat2(
      @Dim int B,
      @Dim int N,
      @Shape("B, N") float[] a,
      @Shape("B, N") float[] b,
      @Out @Shape("B, 2*N") float[] out) {
    for (@Parallel int r = 0; r < B; r++) {
      for (@Parallel int n = 0; n < N; n++) {
        out[r * 2 * N + n] = a[r * N + n];
        out[r * 2 * N + N + n] = b[r * N + n];
      }
    }
  }

  /** {@code a, b, c, d [r, h] = x[r, h], x[r, H + h], x[r, 2H + h], x[r, 3H + h]}: four quarters. */
  @Operator
  public static void split4(
      @Dim int B,
      @Dim int H,
      @Shape("B, 4*H") float[] x,
      @Out @Shape("B, H") float[] a,
      @Out @Shape("B, H") float[] b,
      @Out @Shape("B, H") float[] c,
      @Out @Shape("B, H") float[] d) {
    for (@Parallel int r = 0; r < B; r++) {
      for (@Parallel int h = 0; h < H; h++) {
        a[r * H + h] = x[r * 4 * H + h];
        b[r * H + h] = x[r * 4 * H + H + h];
        c[r * H + h] = x[r * 4 * H + 2 * H + h];
        d[r * H + h] = x[r * 4 * H + 3 * H + h];
      }
    }
  }

  /** {@code out[c, r] = x[r, c]}. */
  @Operator
  public static void transpose(
      @Dim int R, @Dim int C, @Shape("R, C") float[] x, @Out @Shape("C, R") float[] out) {
    for (@Parallel int r = 0; r < R; r++) {
      for (@Parallel int c = 0; c < C; c++) {
        out[c * R + r] = x[r * C + c];
      }
    }
  }

  /**
   * {@code out[r, k] = x[r, offset + k]}: columns {@code offset .. offset + K - 1} of each row. The
   * caller keeps {@code 0 <= offset <= N - K}; past that it throws as the plain loop does (hence
   * KILN049 is suppressed: the warning is the contract).
   */
  @SuppressWarnings("KILN049")
  @Operator
  public static void slice(
      @Dim int B,
      @Dim int N,
      @Dim int K,
      @Shape("B, N") float[] x,
      int offset,
      @Out @Shape("B, K") float[] out) {
    for (@Parallel int r = 0; r < B; r++) {
      for (@Parallel int k = 0; k < K; k++) {
        out[r * K + k] = x[r * N + offset + k];
      }
    }
  }
}
