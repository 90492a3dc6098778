package dev.kiln.tests.ops;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Shape;

/** Data movement: transposes, a gather, and int arithmetic. */
public final class Layout {
  private Layout() {}

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

  /** A 3-D grid: {@code out[b, n, m] = x[b, m, n]}, a batched transpose. */
  @Operator
  public static void batchTranspose(
      @Dim int B,
      @Dim int M,
      @Dim int N,
      @Shape("B, M, N") float[] x,
      @Out @Shape("B, N, M") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int m = 0; m < M; m++) {
        for (@Parallel int n = 0; n < N; n++) {
          out[(b * N + n) * M + m] = x[(b * M + m) * N + n];
        }
      }
    }
  }

  /**
   * Rotary embeddings' {@code rotate_half}: each row's second half, negated, then its first half,
   * at offsets of {@code N / 2} (an odd {@code N} leaves the middle element in place of the last).
   */
  @Operator
  public static void rotateHalf(
      @Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int i = 0; i < N; i++) {
        out[b * N + i] = i < N / 2 ? -x[b * N + i + N / 2] : x[b * N + i - N / 2];
      }
    }
  }

  /** Each row less its middle element, {@code x[b, N / 2]}, squared: a read every worker of a row shares. */
  @Operator
  public static void lessMiddle(
      @Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int i = 0; i < N; i++) {
        float d = x[b * N + i] - x[b * N + N / 2];
        out[b * N + i] = d * d;
      }
    }
  }

  /** {@code out[i] = x[idx[i]]}: an int array, a data-dependent read index. */
  @Operator
  public static void gather(
      @Dim int M,
      @Dim int N,
      @Shape("M") float[] x,
      @Shape("N") int[] idx,
      @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = x[idx[i]];
    }
  }

  /** Int arrays in and out: wrapping multiplication, truncating division and remainder. */
  @Operator
  public static void intMix(
      @Dim int N, @Shape("N") int[] a, @Shape("N") int[] b, int d, @Out @Shape("N") int[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      int v = a[i] * 31 + b[i];
      out[i] = v / d + v % d;
    }
  }

  /**
   * The lower triangle of a square matrix, diagonal included (the rest of {@code y} untouched): a
   * loop bounded by the worker's own row, whose writes are distinct across workers.
   */
  @Operator
  public static void lowerTriangle(@Dim int N, @Shape("N, N") float[] x, @Out @Shape("N, N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      for (int j = 0; j <= i; j++) {
        y[i * N + j] = 2f * x[i * N + j];
      }
    }
  }
}
