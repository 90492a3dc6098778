package dev.kiln.tests.records;

import dev.kiln.Dim;
import dev.kiln.KMath;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Reduce;
import dev.kiln.Shape;

/**
 * Composites that call user-monoid operators: each keeps its statistics in a temporary array of
 * records ({@code new MeanVar[n]}), fills it with the record's identity (a new array of records
 * holds nulls in Java), reduces into it, then reads it.
 */
public final class MonoidComposites {
  private MonoidComposites() {}

  /** Every record the empty summary. */
  @Operator
  public static void empties(@Dim int N, @Out @Shape("N") MeanVar[] s) {
    for (@Parallel int i = 0; i < N; i++) {
      s[i] = MeanVar.empty();
    }
  }

  /** Every record "no maximum yet". */
  @Operator
  public static void noMaxima(@Dim int N, @Out @Shape("N") ArgMax[] m) {
    for (@Parallel int i = 0; i < N; i++) {
      m[i] = ArgMax.none();
    }
  }

  /** {@code y = 2x + 1}: a cheap producer, which the fusion recomputes inside the reduction. */
  @Operator
  public static void affine(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = 2f * x[i] + 1f;
    }
  }

  /** Each row standardised by its summary. */
  @Operator
  public static void standardizeRows(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("B") MeanVar[] s,
      @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int n = 0; n < N; n++) {
        y[b * N + n] = (x[b * N + n] - s[b].mean()) * KMath.rsqrt(s[b].variance() + 1e-5f);
      }
    }
  }

  /** 1 where the summary's index is, 0 elsewhere. */
  @Operator
  public static void oneHot(@Dim int N, @Shape("1") ArgMax[] m, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = i == m[0].index() ? 1f : 0f;
    }
  }

  /** Each row of {@code 2x + 1} standardised: its statistics by Welford and Chan in a temporary of records. */
  @Operator
  public static void rowStandardize(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] y) {
    float[] t = new float[B * N];
    affine(B * N, x, t);
    MeanVar[] s = new MeanVar[B];
    empties(B, s);
    Monoids.rowMeanVar(B, N, t, s);
    standardizeRows(B, N, t, s, y);
  }

  /** Each column standardised (batch normalisation's statistics, no scale or shift). */
  @Operator
  public static void columnStandardize(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] y) {
    MeanVar[] s = new MeanVar[N];
    empties(N, s);
    Monoids.columnMeanVar(B, N, x, s);
    RecordArrays.standardize(B, N, x, s, y);
  }

  /** Each column's summary, over a grid of rows by columns: a reduction down columns. */
  @Operator
  public static void columnStats(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Reduce @Shape("N") MeanVar[] s) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int n = 0; n < N; n++) {
        s[n] = s[n].combine(MeanVar.of(x[b * N + n]));
      }
    }
  }

  /** Each summary's standard deviation. */
  @Operator
  public static void deviations(@Dim int N, @Shape("N") MeanVar[] s, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = KMath.sqrt(s[i].variance());
    }
  }

  /**
   * Each column's standard deviation: the statistics combined down the columns and the square root
   * of their variance, one kernel after the identity's (a worker a column carries the record).
   */
  @Operator
  public static void columnDeviations(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("N") float[] out) {
    MeanVar[] s = new MeanVar[N];
    empties(N, s);
    columnStats(B, N, x, s);
    deviations(N, s, out);
  }

  /** The standard deviation of one summary: a scalar epilogue, no grid. */
  @Operator
  public static void deviation(@Shape("1") MeanVar[] s, @Out @Shape("1") float[] out) {
    out[0] = KMath.sqrt(s[0].variance());
  }

  /**
   * The standard deviation of all of {@code x}: Welford and Chan over every worker (the chunks'
   * records combined in the fixed tree), then the root of the variance, run once after every
   * worker in the same kernel; the identity's store is a kernel before it.
   */
  @Operator
  public static void spread(@Dim int N, @Shape("N") float[] x, @Out @Shape("1") float[] out) {
    MeanVar[] s = new MeanVar[1];
    empties(1, s);
    Monoids.meanVar(N, x, s);
    deviation(s, out);
  }

  /**
   * A one-hot vector at the first maximum of {@code x}: the arg-max's identity (index -1) must be
   * stored before the reduction even though only the index is read after it.
   */
  @Operator
  public static void oneHotOfMax(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    ArgMax[] m = new ArgMax[1];
    noMaxima(1, m);
    Monoids.argMax(N, x, m);
    oneHot(N, m, y);
  }

  /** Each row's statistics of {@code 2x + 1} combined into the caller's records (an {@code @Out @Reduce} array). */
  @Operator
  public static void extendRowStats(@Dim int B, @Dim int N, @Shape("B, N") float[] x,
      @Out @Reduce @Shape("B") MeanVar[] s) {
    float[] t = new float[B * N];
    affine(B * N, x, t);
    Monoids.rowMeanVar(B, N, t, s);
  }

  /** Standardised rows and the statistics they used, an {@code @Out} array of records filled here. */
  @Operator
  public static void rowStandardizeWithStats(@Dim int B, @Dim int N, @Shape("B, N") float[] x,
      @Out @Shape("B, N") float[] y, @Out @Shape("B") MeanVar[] s) {
    empties(B, s);
    Monoids.rowMeanVar(B, N, x, s);
    standardizeRows(B, N, x, s, y);
  }

  /** Rows standardised by statistics the caller passes (an input array of records). */
  @Operator
  public static void standardizeBy(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("B") MeanVar[] s,
      @Out @Shape("B, N") float[] y) {
    standardizeRows(B, N, x, s, y);
  }

  /** The two composites above, nested: records returned by one and passed to the other. */
  @Operator
  public static void standardizeTwice(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] y) {
    float[] once = new float[B * N];
    MeanVar[] s = new MeanVar[B];
    rowStandardizeWithStats(B, N, x, once, s);
    standardizeBy(B, N, x, s, y);
  }
}
