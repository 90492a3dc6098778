package dev.kiln.tests.types;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Reduce;
import dev.kiln.Shape;

/** {@code long[]} arrays: 64-bit arithmetic that an {@code int} would wrap, reductions, mixed with floats. */
public final class LongArrays {
  private LongArrays() {}

  /** A 64-bit hash of each element with its index (multiplies that overflow an int, shifts, xor). */
  @Operator
  public static void mix(@Dim int N, @Shape("N") long[] x, long seed, @Out @Shape("N") long[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      long z = x[i] + seed + (long) i * 0x9E3779B97F4A7C15L;
      z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
      y[i] = z ^ (z >>> 27);
    }
  }

  /** Per row, the sum, the maximum and the float mean of a long matrix (sums past 2^31). */
  @Operator
  public static void rowStats(@Dim int B, @Dim int N, @Shape("B, N") long[] x, @Out @Shape("B") long[] sum,
      @Out @Shape("B") long[] max, @Out @Shape("B") float[] mean) {
    for (@Parallel int b = 0; b < B; b++) {
      long s = 0L;
      long m = Long.MIN_VALUE;
      for (int k = 0; k < N; k++) {
        s += x[b * N + k];
        m = Math.max(m, x[b * N + k]);
      }
      sum[b] = s;
      max[b] = m;
      mean[b] = (float) s / N;
    }
  }

  /** Column totals accumulated by every row's worker: a {@code @Reduce} on a long array. */
  @Operator
  public static void columnTotals(@Dim int B, @Dim int N, @Shape("B, N") long[] x, @Out @Reduce @Shape("N") long[] total) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int n = 0; n < N; n++) {
        total[n] += x[b * N + n];
      }
    }
  }

  /** Timestamps in nanoseconds as float seconds since the first: long in, float out. */
  @Operator
  public static void seconds(@Dim int N, @Shape("N") long[] nanos, @Out @Shape("N") float[] s) {
    for (@Parallel int i = 0; i < N; i++) {
      s[i] = (float) ((nanos[i] - nanos[0]) * 1e-9);
    }
  }
}
