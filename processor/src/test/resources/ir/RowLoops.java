package ir;

import dev.kiln.*;
import static dev.kiln.KMath.*;

/** Workers with sequential loops: which get CUDA row kernels (a block a worker), and why not. */
public final class RowLoops {
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

  /** The first maximum of each row marked: a loop carrying "seen so far". */
  @Operator
  public static void firstMax(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      float m = Float.NEGATIVE_INFINITY;
      for (int k = 0; k < N; k++) m = max(m, x[b * N + k]);
      boolean seen = false;
      for (int k = 0; k < N; k++) {
        boolean hit = x[b * N + k] == m;
        y[b * N + k] = hit && !seen ? 1f : 0f;
        seen = seen || hit;
      }
    }
  }

  /** Integer sums and a difference fold: exact in any order. */
  @Operator
  public static void countBelow(@Dim int B, @Dim int N, @Shape("B, N") int[] x, int t, @Out @Shape("B") int[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      int c = 100;
      for (int k = 0; k < N; k++) c -= x[b * N + k] < t ? 1 : 0;
      y[b] = c;
    }
  }

  /** A running sum stored as it goes: each iteration needs the one before. */
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

  /** Column sums: the loop walks down a column, a row apart: a column kernel (32 columns a block, 32 threads a column). */
  @Operator
  public static void columnSum(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int j = 0; j < N; j++) {
      float s = 0f;
      for (int i = 0; i < B; i++) s += x[i * N + j];
      y[j] = s;
    }
  }

  /** Columns scaled by their sums: the second loop stores while walking down a column. */
  @Operator
  public static void columnNormalize(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] y) {
    for (@Parallel int j = 0; j < N; j++) {
      float s = 0f;
      for (int i = 0; i < B; i++) s += x[i * N + j];
      for (int i = 0; i < B; i++) y[i * N + j] = x[i * N + j] / s;
    }
  }

  /** A three-point window: too short a loop to share. */
  @Operator
  public static void window(@Dim int N, @Shape("N + 2") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      float s = 0f;
      for (int k = 0; k < 3; k++) s += x[i + k];
      y[i] = s;
    }
  }

  /** Softmax whose sum of exponentials is a lane sum: a row kernel as the plain sum's. */
  @Operator
  public static void laneSoftmax(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      float m = Float.NEGATIVE_INFINITY;
      for (int k = 0; k < N; k++) m = max(m, x[b * N + k]);
      float s = 0f;
      for (int j = 0; j < 32; j++) {
        float p = 0f;
        for (int k = j; k < N; k += 32) p += exp(x[b * N + k] - m);
        s += p;
      }
      for (int k = 0; k < N; k++) y[b * N + k] = exp(x[b * N + k] - m) / s;
    }
  }

  /** A lane nest of products: not a sum, kept as written, one thread a worker. */
  @Operator
  public static void laneProducts(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      float r = 1f;
      for (int j = 0; j < 16; j++) {
        float q = 1f;
        for (int k = j; k < N; k += 16) q *= x[b * N + k];
        r *= q;
      }
      y[b] = r;
    }
  }
}
