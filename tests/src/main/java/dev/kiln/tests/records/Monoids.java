package dev.kiln.tests.records;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Reduce;
import dev.kiln.Shape;

/**
 * User monoids: {@code @Reduce} arrays of records ({@link MeanVar}, {@link LogSumExp}, {@link
 * ArgMax}) updated as {@code r[i] = r[i].combine(e)}. Workers' contributions to one element are
 * combined by the record's method: in the source's order within a chunk of workers, then the
 * chunks' partial results in a fixed tree starting from the record's {@code @Identity} value.
 */
public final class Monoids {
  private Monoids() {}

  /** The count, mean and spread of all of {@code x} (Welford within a chunk, Chan across chunks). */
  @Operator
  public static void meanVar(@Dim int N, @Shape("N") float[] x, @Out @Reduce @Shape("1") MeanVar[] s) {
    for (@Parallel int i = 0; i < N; i++) {
      s[0] = s[0].combine(MeanVar.of(x[i]));
    }
  }

  /** Each row's count, mean and spread: a worker per element, rows split among chunks. */
  @Operator
  public static void rowMeanVar(@Dim int B, @Dim int N, @Shape("B, N") float[] x,
      @Out @Reduce @Shape("B") MeanVar[] s) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int k = 0; k < N; k++) {
        s[b] = s[b].combine(MeanVar.of(x[b * N + k]));
      }
    }
  }

  /** Each column's statistics, a worker per row walking its columns in a sequential loop. */
  @Operator
  public static void columnMeanVar(@Dim int B, @Dim int N, @Shape("B, N") float[] x,
      @Out @Reduce @Shape("N") MeanVar[] s) {
    for (@Parallel int b = 0; b < B; b++) {
      for (int k = 0; k < N; k++) {
        s[k] = s[k].combine(MeanVar.of(x[b * N + k]));
      }
    }
  }

  /** The statistics of the positive values only: a guarded update. */
  @Operator
  public static void positiveMeanVar(@Dim int N, @Shape("N") float[] x, @Out @Reduce @Shape("1") MeanVar[] s) {
    for (@Parallel int i = 0; i < N; i++) {
      if (x[i] > 0f) {
        s[0] = s[0].combine(MeanVar.of(x[i]));
      }
    }
  }

  /** The largest value and its first index, by the static form {@code R.m(r[i], e)}. */
  @Operator
  public static void argMax(@Dim int N, @Shape("N") float[] x, @Out @Reduce @Shape("1") ArgMax[] m) {
    for (@Parallel int i = 0; i < N; i++) {
      m[0] = ArgMax.larger(m[0], new ArgMax(x[i], i));
    }
  }

  /** The three largest values and their indices (a top-k of small k), by the static form {@code R.m(r[i], e)}. */
  @Operator
  public static void top3(@Dim int N, @Shape("N") float[] x, @Out @Reduce @Shape("1") Top3[] t) {
    for (@Parallel int i = 0; i < N; i++) {
      t[0] = Top3.merge(t[0], Top3.of(x[i], i));
    }
  }

  /** Each row's three largest values and their columns: one record a row, the rows' workers apart. */
  @Operator
  public static void rowTop3(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Reduce @Shape("B") Top3[] t) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int n = 0; n < N; n++) {
        t[b] = Top3.merge(t[b], Top3.of(x[b * N + n], n));
      }
    }
  }

  /**
   * The log-sum-exp of each bucket's values, at an index read from data ({@code bucket[i]}), and
   * the overall statistics beside it: two arrays of records in one operator.
   */
  @Operator
  public static void bucketLogSumExp(@Dim int N, @Dim int K, @Shape("N") float[] x, @Shape("N") int[] bucket,
      @Out @Reduce @Shape("K") LogSumExp[] l, @Out @Reduce @Shape("1") MeanVar[] all) {
    for (@Parallel int i = 0; i < N; i++) {
      l[bucket[i]] = l[bucket[i]].combine(LogSumExp.of(x[i]));
      all[0] = all[0].combine(MeanVar.of(x[i]));
    }
  }

  /** The count and sum of the values of each sign (0: negative, 1: the rest), in a long and a double. */
  @Operator
  public static void tallyBySign(@Dim int N, @Shape("N") float[] x, @Out @Reduce @Shape("2") Tally[] t) {
    for (@Parallel int i = 0; i < N; i++) {
      int side = x[i] < 0f ? 0 : 1;
      t[side] = t[side].plus(Tally.of(x[i]));
    }
  }

  /**
   * The statistics of groups, each summarised by its weight {@code w[i]}, mean {@code x[i]} and
   * spread {@code v[i]}: every component of the element comes from an input.
   */
  @Operator
  public static void groupsMeanVar(@Dim int N, @Shape("N") float[] w, @Shape("N") float[] x, @Shape("N") float[] v,
      @Out @Reduce @Shape("1") MeanVar[] s) {
    for (@Parallel int i = 0; i < N; i++) {
      s[0] = s[0].combine(new MeanVar(w[i], x[i], v[i]));
    }
  }

  /** {@code log sum w[i] exp(x[i])} over the values below 50 (those above would overflow {@code exp}). */
  @Operator
  public static void weightedLogSumExp(@Dim int N, @Shape("N") float[] x, @Shape("N") float[] w,
      @Out @Reduce @Shape("1") LogSumExp[] l) {
    for (@Parallel int i = 0; i < N; i++) {
      if (x[i] < 50f) {
        l[0] = l[0].combine(new LogSumExp(x[i], w[i]));
      }
    }
  }

  /** Doubles {@code x} and counts its elements: the count's record declares no gradient and needs none. */
  @Operator
  public static void doubleAndCount(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y,
      @Out @Reduce @Shape("1") Tally[] t) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = 2f * x[i];
      t[0] = t[0].plus(Tally.of(1f));
    }
  }
}
