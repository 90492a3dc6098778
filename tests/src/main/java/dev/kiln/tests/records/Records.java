package dev.kiln.tests.records;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Shape;

/**
 * Operators that hold records ({@link MeanVar}, {@link LogSumExp}, {@link ArgMax}, {@link
 * Complex}) in locals, carry them through sequential loops and call their methods. The front end
 * inlines the methods and keeps each component as a value of its own, so the kernels are those of
 * the same code written with one float per component.
 */
public final class Records {
  private Records() {}

  /** Each row's mean and variance in one pass (Welford). */
  @Operator
  public static void meanVar(@Dim int B, @Dim int N, @Shape("B, N") float[] x,
      @Out @Shape("B") float[] mean, @Out @Shape("B") float[] var) {
    for (@Parallel int b = 0; b < B; b++) {
      MeanVar s = MeanVar.empty();
      for (int k = 0; k < N; k++) {
        s = s.add(x[b * N + k]);
      }
      mean[b] = s.mean();
      var[b] = s.variance();
    }
  }

  /** Each row's variance from its two halves, each summarised alone and then combined (Chan). */
  @Operator
  public static void halvesVar(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B") float[] var) {
    for (@Parallel int b = 0; b < B; b++) {
      var lo = MeanVar.empty();
      MeanVar hi = new MeanVar(0, 0, 0);
      for (int k = 0; k < N; k++) {
        if (k < N / 2) {
          lo = lo.add(x[b * N + k]);
        } else {
          hi = hi.add(x[b * N + k]);
        }
      }
      var[b] = lo.combine(hi).variance();
    }
  }

  /** The variance of all of {@code x}, one worker, the sum of squares minus the squared sum: inaccurate far from zero. */
  @Operator
  public static void naiveVariance(@Dim int N, @Shape("N") float[] x, @Out @Shape("1") float[] var) {
    float s = 0f;
    float s2 = 0f;
    for (int k = 0; k < N; k++) {
      s += x[k];
      s2 += x[k] * x[k];
    }
    float mean = s / N;
    var[0] = s2 / N - mean * mean;
  }

  /** The variance of all of {@code x}, one worker, by Welford's update. */
  @Operator
  public static void welfordVariance(@Dim int N, @Shape("N") float[] x, @Out @Shape("1") float[] var) {
    MeanVar s = MeanVar.empty();
    for (int k = 0; k < N; k++) {
      s = s.add(x[k]);
    }
    var[0] = s.variance();
  }

  /**
   * The variance of all of {@code x}, one worker: Welford's update over each of {@code C} chunks
   * of {@code N / C} values, the chunks' summaries combined in turn (Chan), as a parallel reduction
   * would combine its parts. Values past the last whole chunk are left out.
   */
  @Operator
  public static void chunkedVariance(@Dim int N, @Dim int C, @Shape("N") float[] x, @Out @Shape("1") float[] var) {
    int per = N / C;
    MeanVar total = MeanVar.empty();
    for (int c = 0; c < C; c++) {
      MeanVar part = MeanVar.empty();
      for (int k = 0; k < per; k++) {
        part = part.add(x[c * per + k]);
      }
      total = total.combine(part);
    }
    var[0] = total.variance();
  }

  /**
   * A monoid reduction written with a record today: each of {@code C} workers summarises its chunk of
   * {@code P} values (Welford), the summaries stored component by component; {@link
   * #combineMoments} folds them with the record's combine. {@link #parallelVariance} is the two as
   * one composite: the chunks in parallel (threads on the CPU, blocks on CUDA), then the combine.
   */
  @Operator
  public static void chunkMoments(@Dim int C, @Dim int P, @Shape("C, P") float[] x, @Out @Shape("C") float[] n,
      @Out @Shape("C") float[] mean, @Out @Shape("C") float[] m2) {
    for (@Parallel int c = 0; c < C; c++) {
      MeanVar s = MeanVar.empty();
      for (int k = 0; k < P; k++) {
        s = s.add(x[c * P + k]);
      }
      n[c] = s.n();
      mean[c] = s.mean();
      m2[c] = s.m2();
    }
  }

  /** The chunks' summaries combined in order by Chan's formula, and the variance of all of them. */
  @Operator
  public static void combineMoments(@Dim int C, @Shape("C") float[] n, @Shape("C") float[] mean, @Shape("C") float[] m2,
      @Out @Shape("1") float[] var) {
    MeanVar total = MeanVar.empty();
    for (int c = 0; c < C; c++) {
      total = total.combine(new MeanVar(n[c], mean[c], m2[c]));
    }
    var[0] = total.variance();
  }

  /** The variance of {@code C * P} values: chunks summarised in parallel, then combined. */
  @Operator
  public static void parallelVariance(@Dim int C, @Dim int P, @Shape("C, P") float[] x, @Out @Shape("1") float[] var) {
    float[] n = new float[C];
    float[] mean = new float[C];
    float[] m2 = new float[C];
    chunkMoments(C, P, x, n, mean, m2);
    combineMoments(C, n, mean, m2, var);
  }

  /** Each row's log-sum-exp in one pass. */
  @Operator
  public static void logSumExp(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      LogSumExp s = LogSumExp.empty();
      for (int k = 0; k < N; k++) {
        s = s.add(x[b * N + k]);
      }
      y[b] = s.value();
    }
  }

  /** Each row's largest element and its column. */
  @Operator
  public static void argMax(@Dim int B, @Dim int N, @Shape("B, N") float[] x,
      @Out @Shape("B") float[] max, @Out @Shape("B") int[] at) {
    for (@Parallel int b = 0; b < B; b++) {
      ArgMax best = new ArgMax(0f, -1);
      for (int k = 0; k < N; k++) {
        best = best.offer(x[b * N + k], k);
      }
      max[b] = best.value();
      at[b] = best.index();
    }
  }

  /** {@code |a b + c|^2 * s} for complex {@code a, b, c} stored as pairs: record arithmetic with a gradient. */
  @Operator
  public static void complexMulAdd(@Dim int N, @Shape("N, 2") float[] a, @Shape("N, 2") float[] b,
      @Shape("N, 2") float[] c, float s, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      Complex p = Complex.of(a[2 * i], a[2 * i + 1]).times(new Complex(b[2 * i], b[2 * i + 1]));
      Complex q = p.plus(new Complex(c[2 * i], c[2 * i + 1])).scale(s);
      y[i] = q.abs2();
    }
  }

  /** A complex power series {@code sum_k z^k c_k} by Horner's rule over a row of coefficients: a record carried through a loop. */
  @Operator
  public static void horner(@Dim int N, @Dim int K, @Shape("N, 2") float[] z, @Shape("K, 2") float[] coef,
      @Out @Shape("N, 2") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      Complex zi = new Complex(z[2 * i], z[2 * i + 1]);
      Complex acc = new Complex(0f, 0f);
      for (int k = 0; k < K; k++) {
        acc = acc.times(zi).plus(new Complex(coef[2 * k], coef[2 * k + 1]));
      }
      y[2 * i] = acc.re();
      y[2 * i + 1] = acc.im();
    }
  }
}
