package dev.kiln.tests.records;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.testing.Agreement;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * Operators holding records: the generated kernels compute the plain Java's bits (the records'
 * methods inlined, each component a value of its own), at sizes with empty rows, one element and
 * rows longer than a SIMD vector.
 */
class RecordsTest {
  private static float[] data(long seed, int n, float center, float spread) {
    SplittableRandom r = new SplittableRandom(seed);
    float[] x = new float[n];
    for (int i = 0; i < n; i++) {
      x[i] = center + spread * (float) (r.nextDouble() * 2 - 1);
    }
    return x;
  }

  private static float[] nan(int n) {
    float[] a = new float[n];
    java.util.Arrays.fill(a, Float.NaN);
    return a;
  }

  @ParameterizedTest(name = "B={0}, N={1}")
  @CsvSource({"1, 1", "3, 0", "0, 4", "5, 7", "17, 33", "64, 1000", "3, 4099"})
  void rowStatisticsAreThePlainJavas(int b, int n) {
    float[] x = data(11 + b + n, b * n, 3f, 2f);
    float[] mean = new float[b];
    float[] var = new float[b];
    Records.meanVar(b, n, x, mean, var);
    float[] mean2 = nan(b);
    float[] var2 = nan(b);
    RecordsKernels.meanVar(b, n, x, mean2, var2);
    Agreement.assertSame(mean, mean2);
    Agreement.assertSame(var, var2);

    float[] halves = new float[b];
    Records.halvesVar(b, n, x, halves);
    float[] halves2 = nan(b);
    RecordsKernels.halvesVar(b, n, x, halves2);
    Agreement.assertSame(halves, halves2);
    // Chan's combination of the halves is the one-pass variance up to rounding
    Agreement.assertClose(var, halves, 1e-4, 1e-5);

    float[] lse = new float[b];
    Records.logSumExp(b, n, x, lse);
    float[] lse2 = nan(b);
    RecordsKernels.logSumExp(b, n, x, lse2);
    Agreement.assertSame(lse, lse2);

    float[] max = new float[b];
    int[] at = new int[b];
    Records.argMax(b, n, x, max, at);
    float[] max2 = nan(b);
    int[] at2 = new int[b];
    RecordsKernels.argMax(b, n, x, max2, at2);
    Agreement.assertSame(max, max2);
    assertArrayEquals(at, at2);
    for (int r = 0; r < b && n > 0; r++) {
      assertEquals(x[r * n + at[r]], max[r]);
    }
  }

  @Test
  void logSumExpRescalesWithoutOverflow() {
    float[] x = {100f, 200f, 300f, -1e30f, 300f};
    float[] y = new float[1];
    RecordsKernels.logSumExp(1, x.length, x, y);
    assertEquals(300.0 + Math.log(2 + Math.exp(-100)), y[0], 1e-4);
  }

  @ParameterizedTest(name = "N={0}, K={1}")
  @CsvSource({"1, 1", "0, 3", "7, 0", "9, 5", "1000, 12"})
  void complexArithmeticIsThePlainJavas(int n, int k) {
    float[] a = data(21, 2 * n, 0f, 1f);
    float[] b = data(22, 2 * n, 0f, 1f);
    float[] c = data(23, 2 * n, 0f, 1f);
    float[] y = new float[n];
    Records.complexMulAdd(n, a, b, c, 0.75f, y);
    float[] y2 = nan(n);
    RecordsKernels.complexMulAdd(n, a, b, c, 0.75f, y2);
    Agreement.assertSame(y, y2);

    float[] coef = data(24, 2 * k, 0f, 1f);
    float[] h = new float[2 * n];
    Records.horner(n, k, a, coef, h);
    float[] h2 = nan(2 * n);
    RecordsKernels.horner(n, k, a, coef, h2);
    Agreement.assertSame(h, h2);
  }

  /**
   * Ten million values of mean 10^4 and standard deviation about 0.58 (variance 1/3). The sum of
   * squares minus the squared sum, in float, is off by seven orders of magnitude (7.2e6 measured).
   * Welford's update carried as a record in one pass gets within 1.0% (its mean, near 10^4, cannot
   * take increments below half an ulp once ten million values are in); the same update over 1000
   * chunks whose summaries are combined by Chan's formula, as a tree or a parallel reduction would
   * combine them, within 0.06%; the same chunks summarised by 1000 workers in parallel and then
   * combined ({@code parallelVariance}, a composite of two kernels) give the same bits.
   */
  @Test
  void welfordVarianceIsAccurateWhereTheNaiveSumIsNot() {
    int n = 10_000_000;
    float[] x = data(31, n, 1e4f, 1f);
    double mean = 0;
    for (float v : x) {
      mean += v;
    }
    mean /= n;
    double exact = 0;
    for (float v : x) {
      exact += (v - mean) * (v - mean);
    }
    exact /= n;

    float[] naive = new float[1];
    RecordsKernels.naiveVariance(n, x, naive);
    float[] welford = new float[1];
    RecordsKernels.welfordVariance(n, x, welford);
    float[] chunked = new float[1];
    RecordsKernels.chunkedVariance(n, 1000, x, chunked);
    float[] chunkedJava = new float[1];
    Records.chunkedVariance(n, 1000, x, chunkedJava);
    Agreement.assertSame(chunkedJava, chunked);

    float[] parallel = new float[1];
    RecordsKernels.parallelVariance(1000, n / 1000, x, parallel);
    float[] parallelJava = new float[1];
    Records.parallelVariance(1000, n / 1000, x, parallelJava);
    Agreement.assertSame(parallelJava, parallel);
    Agreement.assertSame(chunked, parallel); // the same chunks combined in the same order

    String values = "naive " + naive[0] + ", Welford " + welford[0] + ", chunked " + chunked[0] + ", exact " + exact;
    assertTrue(Math.abs(naive[0] - exact) / exact > 100, values);
    assertTrue(Math.abs(welford[0] - exact) / exact < 0.02, values);
    assertTrue(Math.abs(chunked[0] - exact) / exact < 1e-3, values);
  }
}
