package warnings;

import dev.kiln.*;
import static dev.kiln.KMath.*;

/** Accesses out of bounds for some sizes or arguments only: a warning each, not an error. */
public final class MaybeOutOfBounds {
  @Operator
  public static void shifted(@Dim int N, @Shape("N") float[] x, int k, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = x[i + k]; // warning: KILN049 index i + k of 'x' may be out of bounds: over the workers and loops it runs from k to N + k - 1
    }
  }

  @Operator
  public static void window(@Dim int N, @Dim int W, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      float s = 0f;
      for (int j = 0; j < W; j++) {
        s += x[i + j]; // warning: KILN049 index i + j of 'x' may be out of bounds
      }
      y[i] = s;
    }
  }

  /** Guarded: no warning (the guard decides, and Kiln keeps it). */
  @Operator
  public static void guarded(@Dim int N, @Shape("N") float[] x, int k, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = i + k < N && i + k >= 0 ? x[i + k] : 0f;
    }
  }

  /** Provably inside: no warning. */
  @Operator
  public static void rows(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      float s = 0f;
      for (int j = 0; j < N; j++) {
        s += x[b * N + j];
      }
      y[b] = s;
    }
  }

  /** The caller's contract, said so: suppressed. */
  @SuppressWarnings("KILN049")
  @Operator
  public static void slice(@Dim int N, @Dim int K, @Shape("N") float[] x, int offset, @Out @Shape("K") float[] y) {
    for (@Parallel int i = 0; i < K; i++) {
      y[i] = x[offset + i];
    }
  }
}
