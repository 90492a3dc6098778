package dev.kiln.lib;

import dev.kiln.Dim;
import dev.kiln.Gradient;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Shape;

/**
 * Scans: running sums along each row of a {@code [B, N]} tensor, with a hand-written backward pass
 * (Kiln derives no gradient for a running value stored inside its loop).
 */
public final class Scans {
  private Scans() {}

  /**
   * The inclusive cumulative sum of each row, {@code y[b, k] = x[b, 0] + ... + x[b, k]}, added in
   * index order (every form computes the same floats on the CPU).
   */
  @Operator
  public static void cumsum(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      float s = 0f;
      for (int k = 0; k < N; k++) {
        s += x[b * N + k];
        y[b * N + k] = s;
      }
    }
  }

  /**
   * The backward pass of {@link #cumsum}: {@code dx[b, k] = dy[b, k] + ... + dy[b, N - 1]}, the
   * cumulative sum of each row of {@code dy} from its end.
   */
  @Gradient(of = "cumsum")
  public static void cumsumBackward(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("B, N") float[] y,
      @Shape("B, N") float[] dy, @Out @Shape("B, N") float[] dx) {
    for (@Parallel int b = 0; b < B; b++) {
      float s = 0f;
      for (int k = 0; k < N; k++) {
        s += dy[b * N + (N - 1 - k)];
        dx[b * N + (N - 1 - k)] = s;
      }
    }
  }
}
