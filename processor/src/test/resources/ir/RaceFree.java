package ir;

import dev.kiln.*;

/** Writes the race check must accept: each is injective across workers, if not obviously. */
public final class RaceFree {
  /** Two stores per worker into the two halves of each row: a concat. */
  @Operator
  public static void concat(@Dim int B, @Dim int H, @Shape("B, H") float[] a, @Shape("B, H") float[] b,
                            @Out @Shape("B, 2*H") float[] y) {
    for (@Parallel int r = 0; r < B; r++)
      for (@Parallel int h = 0; h < H; h++) {
        y[r * 2 * H + h] = a[r * H + h];
        y[r * 2 * H + H + h] = b[r * H + h];
      }
  }

  /** Interleaved pairs: worker i writes 2i and 2i + 1. */
  @Operator
  public static void interleave(@Dim int N, @Shape("N") float[] a, @Shape("N") float[] b, @Out @Shape("2*N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[2 * i] = a[i];
      y[2 * i + 1] = b[i];
    }
  }

  /** A reversed write. */
  @Operator
  public static void reverse(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) y[N - 1 - i] = x[i];
  }

  /** A row written by a sequential loop of its worker. */
  @Operator
  public static void fillRows(@Dim int B, @Dim int N, @Shape("B") float[] v, @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++)
      for (int n = 0; n < N; n++) y[b * N + n] = v[b];
  }

  /** A column-major write with the worker's loop on the outer stride. */
  @Operator
  public static void fillColumns(@Dim int B, @Dim int N, @Shape("B") float[] v, @Out @Shape("N, B") float[] y) {
    for (@Parallel int b = 0; b < B; b++)
      for (int n = 0; n < N; n++) y[n * B + b] = v[b];
  }

  /** A 3-D grid writing a permuted layout. */
  @Operator
  public static void permute(@Dim int A, @Dim int B, @Dim int C, @Shape("A, B, C") float[] x, @Out @Shape("C, A, B") float[] y) {
    for (@Parallel int a = 0; a < A; a++)
      for (@Parallel int b = 0; b < B; b++)
        for (@Parallel int c = 0; c < C; c++)
          y[(c * A + a) * B + b] = x[(a * B + b) * C + c];
  }

  /** One worker per row writing its two halves with two loops over the same range. */
  @Operator
  public static void concatByLoops(@Dim int B, @Dim int H, @Shape("B, H") float[] a, @Shape("B, H") float[] b,
                                   @Out @Shape("B, 2*H") float[] y) {
    for (@Parallel int r = 0; r < B; r++) {
      for (int k = 0; k < H; k++) y[r * 2 * H + k] = a[r * H + k];
      for (int k = 0; k < H; k++) y[r * 2 * H + H + k] = b[r * H + k];
    }
  }
}
