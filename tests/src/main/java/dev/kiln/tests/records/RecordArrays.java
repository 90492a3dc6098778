package dev.kiln.tests.records;

import dev.kiln.Dim;
import dev.kiln.KMath;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Reduce;
import dev.kiln.Shape;

/**
 * Array parameters of records: inputs read as {@code s[n]} (a record value: its methods called,
 * its components read), {@code @Out} arrays written as {@code r[b] = e}, and a pipeline of both
 * with a user monoid (column statistics reduced, then used to standardise). Each is one array of
 * numbers a component in the kernels.
 */
public final class RecordArrays {
  private RecordArrays() {}

  /** {@code y = (x - mean) / sqrt(variance + 1e-5)} by column, from statistics given as records. */
  @Operator
  public static void standardize(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("N") MeanVar[] s,
      @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int n = 0; n < N; n++) {
        y[b * N + n] = (x[b * N + n] - s[n].mean()) * KMath.rsqrt(s[n].variance() + 1e-5f);
      }
    }
  }

  /** Each row's statistics (Welford in a loop), written as a record. */
  @Operator
  public static void rowSummaries(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B") MeanVar[] rows) {
    for (@Parallel int b = 0; b < B; b++) {
      MeanVar s = MeanVar.empty();
      for (int k = 0; k < N; k++) {
        s = s.add(x[b * N + k]);
      }
      rows[b] = s;
    }
  }

  /** {@code w = z * c + z}, elementwise over complex numbers, with a record parameter's methods. */
  @Operator
  public static void complexAffine(@Dim int N, @Shape("N") Complex[] z, float cre, float cim, @Out @Shape("N") Complex[] w) {
    for (@Parallel int i = 0; i < N; i++) {
      w[i] = z[i].times(new Complex(cre, cim)).plus(z[i]);
    }
  }

  /** The combined statistics of each row's summary and a fresh one of the same row: input, monoid and output together. */
  @Operator
  public static void extend(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("B") MeanVar[] before,
      @Out @Reduce @Shape("B") MeanVar[] after) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int k = 0; k < N; k++) {
        after[b] = after[b].combine(k == 0 ? before[b].combine(MeanVar.of(x[b * N + k])) : MeanVar.of(x[b * N + k]));
      }
    }
  }
}
