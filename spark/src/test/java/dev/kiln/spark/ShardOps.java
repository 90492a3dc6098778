package dev.kiln.spark;

import static dev.kiln.KMath.exp;
import static dev.kiln.KMath.max;

import dev.kiln.Dim;
import dev.kiln.KRandom;
import dev.kiln.Offset;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Reduce;
import dev.kiln.Shape;

/** Operators split over Spark in the tests: maps, row kernels, reductions, draws, a composite, and one that cannot be split. */
public final class ShardOps {
  private ShardOps() {}

  /** {@code y = x * gamma + beta} by columns: rows split, gamma and beta whole. */
  @Operator
  public static void scaleShift(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("N") float[] gamma,
      @Shape("N") float[] beta, @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int n = 0; n < N; n++) {
        y[b * N + n] = x[b * N + n] * gamma[n] + beta[n];
      }
    }
  }

  /** Softmax of each row: a row kernel. */
  @Operator
  public static void softmax(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      float m = Float.NEGATIVE_INFINITY;
      for (int k = 0; k < N; k++) {
        m = max(m, x[b * N + k]);
      }
      float s = 0f;
      for (int k = 0; k < N; k++) {
        s += exp(x[b * N + k] - m);
      }
      for (int k = 0; k < N; k++) {
        y[b * N + k] = exp(x[b * N + k] - m) / s;
      }
    }
  }

  /** Column sums: a {@code @Reduce} output every part adds into. */
  @Operator
  public static void columnSums(@Dim int B, @Dim int K, @Shape("B, K") float[] x, @Out @Reduce @Shape("K") float[] s) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int k = 0; k < K; k++) {
        s[k] += x[b * K + k];
      }
    }
  }

  /** How many elements exceed {@code t}, and the largest: integer and max reductions. */
  @Operator
  public static void countAndMax(@Dim int N, @Shape("N") float[] x, float t, @Out @Reduce @Shape("1") int[] count,
      @Out @Reduce @Shape("1") float[] largest) {
    for (@Parallel int i = 0; i < N; i++) {
      count[0] += x[i] > t ? 1 : 0;
      largest[0] = max(largest[0], x[i]);
    }
  }

  /** Dropout whose draws are addressed by the global element index, through the {@code @Offset} of B. */
  @Operator
  public static void dropout(@Dim int B, @Dim int N, int seed, @Offset("B") int row0, @Shape("B, N") float[] x,
      @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int n = 0; n < N; n++) {
        float u = KRandom.uniform(seed, 7, (row0 + b) * N + n);
        y[b * N + n] = u < 0.25f ? 0f : x[b * N + n] / 0.75f;
      }
    }
  }

  /** For each element, the sum of a Gaussian of its distance to every element of its row: N^2 work a row, for the cost model. */
  @Operator
  public static void gaussianSums(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int i = 0; i < N; i++) {
        float s = 0f;
        for (int j = 0; j < N; j++) {
          float d = x[b * N + i] - x[b * N + j];
          s += exp(-d * d);
        }
        y[b * N + i] = s;
      }
    }
  }

  /** Column totals written as a loop over the rows: a sum over B that each part computes over its rows. */
  @Operator
  public static void columnTotals(@Dim int B, @Dim int K, @Shape("B, K") float[] x, @Out @Shape("K") float[] s) {
    for (@Parallel int k = 0; k < K; k++) {
      float t = 0f;
      for (int b = 0; b < B; b++) {
        t += x[b * K + k];
      }
      s[k] = t;
    }
  }

  /** Each row's {@link Moments} (Welford, a record carried through the loop), one array per component. */
  @Operator
  public static void rowMoments(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B") float[] n,
      @Out @Shape("B") float[] mean, @Out @Shape("B") float[] m2) {
    for (@Parallel int b = 0; b < B; b++) {
      Moments s = Moments.empty();
      for (int k = 0; k < N; k++) {
        s = s.add(x[b * N + k]);
      }
      n[b] = s.n();
      mean[b] = s.mean();
      m2[b] = s.m2();
    }
  }

  /** A running sum down the rows: each row needs every row before it, so it cannot be split along B. */
  @Operator
  public static void runningSum(@Dim int B, @Shape("B") float[] x, @Out @Shape("B") float[] y) {
    float s = 0f;
    for (int b = 0; b < B; b++) {
      s += x[b];
      y[b] = s;
    }
  }

  /** Softmax, then a scale and shift: a composite, split along B when both kernels of its plan are. */
  @Operator
  public static void softmaxScaled(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("N") float[] gamma,
      @Shape("N") float[] beta, @Out @Shape("B, N") float[] y) {
    float[] p = new float[B * N];
    softmax(B, N, x, p);
    scaleShift(B, N, p, gamma, beta, y);
  }
}
