package ir;

import dev.kiln.*;
import static dev.kiln.KMath.*;

/** One-dimensional workers: which get CUDA vector kernels (four workers a thread, 16-byte accesses). */
public final class VectorLoops {
  @Operator
  public static void gelu(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      float v = x[i];
      y[i] = 0.5f * v * (1f + erf(v * 0.70710677f));
    }
  }

  /** Two outputs, an int array, a scalar and an element read by every worker (a scalar read). */
  @Operator
  public static void scaleShift(@Dim int N, @Shape("N") float[] x, @Shape("N") int[] k, @Shape("1") float[] shift,
      float a, @Out @Shape("N") float[] y, @Out @Shape("N") int[] twice) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = a * x[i] + shift[0];
      twice[i] = 2 * k[i];
    }
  }

  /** Reads a neighbour: not at the worker's own index. */
  @Operator
  public static void shifted(@Dim int N, @Shape("N + 1") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = x[i + 1] - x[i];
    }
  }

  /** A store under a condition. */
  @Operator
  public static void positive(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      if (x[i] > 0f) {
        y[i] = x[i];
      }
    }
  }

  /** Eight-byte elements. */
  @Operator
  public static void square(@Dim int N, @Shape("N") double[] x, @Out @Shape("N") double[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = x[i] * x[i];
    }
  }

  /** An elementwise operator on floats and ints: its map kernel takes the vector form. */
  @Operator
  public static float scaled(float x, int k) {
    return x * k;
  }

  /** On doubles: its map kernel keeps one element a thread. */
  @Operator
  public static double twice(double x) {
    return 2 * x;
  }

  /** Two dimensions. */
  @Operator
  public static void addRows(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("N") float[] r,
      @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int n = 0; n < N; n++) {
        y[b * N + n] = x[b * N + n] + r[n];
      }
    }
  }
}
