package dev.kiln.tests.records;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.runtime.cpu.CpuExecutor;
import dev.kiln.tests.Data;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * User monoids ({@code @Reduce} arrays of records): the CPU kernels against the plain Java. Where
 * chunks of workers keep partial results (one element reduced by all workers, or an element chosen
 * by a loop or by data) the kernel combines them with the record's own method in a fixed tree: an
 * exact monoid (arg-max) gives the plain loop's answer bit for bit, a floating-point one (Welford
 * and Chan, log-sum-exp) agrees within rounding and gives the same bits on every run. Where chunks
 * own whole elements (row statistics), the kernel is the plain Java's order and bits.
 */
class MonoidsTest {
  /** {@code n} empty summaries, where each element of a reduction starts. */
  static MeanVar[] empties(int n) {
    MeanVar[] s = new MeanVar[n];
    java.util.Arrays.fill(s, MeanVar.empty());
    return s;
  }

  /** {@code n} empty top-three lists, where each element of a reduction starts. */
  static Top3[] noTop3s(int n) {
    Top3[] t = new Top3[n];
    java.util.Arrays.fill(t, Top3.none());
    return t;
  }

  /** Count, mean and variance of {@code x} in double precision, two passes. */
  static double[] exact(float[] x, int from, int to, int stride) {
    double n = 0;
    double sum = 0;
    for (int i = from; i < to; i += stride) {
      n++;
      sum += x[i];
    }
    double mean = sum / n;
    double m2 = 0;
    for (int i = from; i < to; i += stride) {
      m2 += (x[i] - mean) * (x[i] - mean);
    }
    return new double[] {n, mean, m2 / n};
  }

  @Test
  void welfordOverAllWorkersCombinesTheChunksByChan() {
    int n = 1 << 21;
    assertTrue(CpuExecutor.chunks(n, 1) > 1, "the workers run as several chunks, each with its partial result");
    float[] x = Data.floats(7, n, 9999f, 10001f); // mean 10^4: where the sum of squares minus the squared sum fails
    MeanVar[] plain = {MeanVar.empty()};
    Monoids.meanVar(n, x, plain);
    MeanVar[] kernel = {MeanVar.empty()};
    MonoidsKernels.meanVar(n, x, kernel);
    double[] want = exact(x, 0, n, 1);
    assertEquals(n, kernel[0].n(), "the count is exact");
    assertEquals(want[1], kernel[0].mean(), 1e4 * 1e-6);
    assertEquals(want[2], kernel[0].variance(), want[2] * 1e-3, "Chan's combination of the chunks' Welford summaries");
    assertEquals(want[2], plain[0].variance(), want[2] * 1e-2, "the plain loop, one Welford update a value");

    MeanVar[] again = {MeanVar.empty()};
    MonoidsKernels.meanVar(n, x, again);
    assertEquals(kernel[0], again[0], "the chunks and their tree depend on the sizes alone: the same bits each run");
  }

  @Test
  void theArraysOwnValueIsCombinedFirst() {
    float[] x = Data.floats(8, 1 << 20, 1f, 3f);
    float[] head = java.util.Arrays.copyOf(x, 1000);
    float[] tail = java.util.Arrays.copyOfRange(x, 1000, x.length);
    MeanVar[] s = {MeanVar.empty()};
    MonoidsKernels.meanVar(head.length, head, s);
    double[] wantHead = exact(head, 0, head.length, 1);
    assertEquals(head.length, s[0].n());
    assertEquals(wantHead[2], s[0].variance(), wantHead[2] * 1e-4);
    MeanVar before = s[0];
    MonoidsKernels.meanVar(tail.length, tail, s);
    assertNotSame(before, s[0], "the element is replaced by a new record");
    double[] want = exact(x, 0, x.length, 1);
    assertEquals(x.length, s[0].n());
    assertEquals(want[1], s[0].mean(), 1e-5);
    assertEquals(want[2], s[0].variance(), want[2] * 1e-3);
  }

  @ParameterizedTest(name = "B={0}, N={1}")
  @CsvSource({"1, 1", "3, 0", "0, 4", "5, 7", "64, 1000", "300, 3000"})
  void rowStatisticsAreThePlainJavasBits(int b, int n) {
    float[] x = Data.floats(9 + b + n, b * n, 1f, 5f);
    MeanVar[] plain = empties(b);
    Monoids.rowMeanVar(b, n, x, plain);
    MeanVar[] kernel = empties(b);
    MonoidsKernels.rowMeanVar(b, n, x, kernel);
    assertArrayEquals(plain, kernel, "chunks own whole rows: each row in the source's order");
  }

  @Test
  void columnStatisticsThroughALoopAgree() {
    int b = 4096;
    int n = 96;
    float[] x = Data.floats(10, b * n, -8f, -2f);
    MeanVar[] kernel = empties(n);
    MonoidsKernels.columnMeanVar(b, n, x, kernel);
    MeanVar[] plain = empties(n);
    Monoids.columnMeanVar(b, n, x, plain);
    for (int k = 0; k < n; k++) {
      double[] want = exact(x, k, b * n, n);
      assertEquals(b, kernel[k].n(), "column " + k);
      assertEquals(want[1], kernel[k].mean(), 1e-5, "column " + k);
      assertEquals(want[2], kernel[k].variance(), want[2] * 1e-4, "column " + k);
      assertEquals(plain[k].variance(), kernel[k].variance(), want[2] * 1e-4, "column " + k);
    }
  }

  @Test
  void aGuardedUpdateCountsOnlyWhereItRan() {
    int n = 1 << 20;
    float[] x = Data.floats(11, n, -1f, 1f);
    MeanVar[] kernel = {MeanVar.empty()};
    MonoidsKernels.positiveMeanVar(n, x, kernel);
    int positives = 0;
    for (float v : x) {
      positives += v > 0f ? 1 : 0;
    }
    assertEquals(positives, kernel[0].n());
    assertTrue(kernel[0].mean() > 0.49f && kernel[0].mean() < 0.51f, "the mean of uniform (0, 1): " + kernel[0].mean());
  }

  @Test
  void anExactMonoidGivesThePlainLoopsAnswerUnderAnyTree() {
    int n = 1 << 21;
    float[] x = Data.floats(12, n, -100f, 100f);
    for (int i : new int[] {5, 700_000, 1_500_000, n - 1}) {
      x[i] = 1000f; // ties: the first index wins, whichever chunk holds it
    }
    ArgMax[] plain = {ArgMax.none()};
    Monoids.argMax(n, x, plain);
    ArgMax[] kernel = {ArgMax.none()};
    MonoidsKernels.argMax(n, x, kernel);
    assertEquals(new ArgMax(1000f, 5), plain[0]);
    assertEquals(plain[0], kernel[0]);

    ArgMax[] seeded = {new ArgMax(1000f, 3)}; // the array's own value takes part, as in the loop
    MonoidsKernels.argMax(n, x, seeded);
    assertEquals(new ArgMax(1000f, 3), seeded[0]);
  }

  /** The three largest of {@code x[from, to)} with their offsets from {@code from}, by sorting: what {@link Top3} keeps. */
  static Top3 sortedTop3(float[] x, int from, int to) {
    Integer[] order = new Integer[to - from];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    java.util.Arrays.sort(order, (p, q) -> x[from + p] != x[from + q] ? Float.compare(x[from + q], x[from + p]) : Integer.compare(p, q));
    Top3 t = Top3.none();
    for (int k = Math.min(3, order.length) - 1; k >= 0; k--) {
      t = Top3.merge(t, Top3.of(x[from + order[k]], order[k]));
    }
    return t;
  }

  @Test
  void aTopThreeIsTheSortedOrdersFirstThreeUnderAnyTree() {
    int n = 1 << 21;
    float[] x = Data.floats(15, n, -100f, 100f);
    // ties across chunks: equal values at indices far apart, the lower index first
    for (int i : new int[] {1_900_000, 7, 1_000_000, 1_300_000}) {
      x[i] = 500f;
    }
    x[n - 1] = 600f;
    Top3[] plain = {Top3.none()};
    Monoids.top3(n, x, plain);
    assertEquals(new Top3(600f, n - 1, 500f, 7, 500f, 1_000_000), plain[0]);
    assertEquals(sortedTop3(x, 0, n), plain[0]);
    assertTrue(CpuExecutor.chunks(n, 1) > 1, "the workers run as several chunks, each with its partial list");
    Top3[] kernel = {Top3.none()};
    MonoidsKernels.top3(n, x, kernel);
    assertEquals(plain[0], kernel[0], "an exact monoid: the loop's answer");
    int m = n - 54_321; // other chunks, another tree
    Top3[] shorter = {Top3.none()};
    MonoidsKernels.top3(m, java.util.Arrays.copyOf(x, m), shorter);
    assertEquals(sortedTop3(x, 0, m), shorter[0]);
    Top3[] seeded = {new Top3(550f, 3, 0f, -1, 0f, -1)}; // the array's own value takes part, as in the loop
    MonoidsKernels.top3(n, x, seeded);
    assertEquals(new Top3(600f, n - 1, 550f, 3, 500f, 7), seeded[0]);
    Top3[] few = {Top3.none()}; // fewer values than slots: the rest stay empty
    MonoidsKernels.top3(2, new float[] {-1f, 2f}, few);
    assertEquals(new Top3(2f, 1, -1f, 0, 0f, -1), few[0]);
  }

  @Test
  void eachRowsTopThree() {
    int b = 37;
    int n = 300;
    float[] x = Data.floats(16, b * n, -5f, 5f);
    for (int r = 0; r < b; r += 3) {
      x[r * n + (r % n)] = 9f;
      x[r * n + n - 1] = 9f; // a tie in the row: the lower column first
    }
    Top3[] plain = noTop3s(b);
    Monoids.rowTop3(b, n, x, plain);
    Top3[] kernel = noTop3s(b);
    MonoidsKernels.rowTop3(b, n, x, kernel);
    for (int r = 0; r < b; r++) {
      assertEquals(sortedTop3(x, r * n, (r + 1) * n), plain[r], "row " + r);
      assertEquals(plain[r], kernel[r], "row " + r);
    }
  }

  @Test
  void bucketsChosenByDataAndTwoRecordArraysInOneOperator() {
    int n = 1 << 20;
    int k = 37;
    float[] x = Data.floats(13, n, -20f, 20f);
    int[] bucket = new int[n];
    SplittableRandom r = new SplittableRandom(14);
    for (int i = 0; i < n; i++) {
      bucket[i] = r.nextInt(k);
    }
    LogSumExp[] plain = new LogSumExp[k];
    java.util.Arrays.fill(plain, LogSumExp.empty());
    MeanVar[] plainAll = {MeanVar.empty()};
    Monoids.bucketLogSumExp(n, k, x, bucket, plain, plainAll);
    LogSumExp[] kernel = new LogSumExp[k];
    java.util.Arrays.fill(kernel, LogSumExp.empty());
    MeanVar[] kernelAll = {MeanVar.empty()};
    MonoidsKernels.bucketLogSumExp(n, k, x, bucket, kernel, kernelAll);
    for (int j = 0; j < k; j++) {
      assertEquals(plain[j].max(), kernel[j].max(), "bucket " + j + ": the maximum is exact");
      assertEquals(plain[j].value(), kernel[j].value(), 1e-4f * Math.abs(plain[j].value()), "bucket " + j);
    }
    assertEquals(n, kernelAll[0].n());
  }

  @Test
  void wideComponentsCountExactly() {
    int n = 1 << 20;
    float[] x = Data.floats(17, n, -0.75f, 1.25f);
    Tally[] plain = {Tally.none(), Tally.none()};
    Monoids.tallyBySign(n, x, plain);
    Tally[] kernel = {Tally.none(), Tally.none()};
    MonoidsKernels.tallyBySign(n, x, kernel);
    assertEquals(plain[0].n(), kernel[0].n(), "a long count is exact under any tree");
    assertEquals(plain[1].n(), kernel[1].n());
    assertEquals(n, kernel[0].n() + kernel[1].n());
    assertEquals(plain[0].sum(), kernel[0].sum(), 1e-9 * Math.abs(plain[0].sum()));
    assertEquals(plain[1].sum(), kernel[1].sum(), 1e-9 * Math.abs(plain[1].sum()));
  }

  @Test
  void misuseNamesTheOperatorAndTheArgument() {
    float[] x = Data.floats(15, 100, -1f, 1f);
    IllegalArgumentException nullArray = assertThrows(IllegalArgumentException.class,
        () -> MonoidsKernels.meanVar(100, x, (MeanVar[]) null));
    assertEquals("meanVar: argument 's' is null", nullArray.getMessage());
    MeanVar[] holes = {null};
    IllegalArgumentException hole = assertThrows(IllegalArgumentException.class, () -> MonoidsKernels.meanVar(100, x, holes));
    assertTrue(hole.getMessage().startsWith("meanVar: argument 's' has null at index 0"), hole.getMessage());
    IllegalArgumentException length = assertThrows(IllegalArgumentException.class,
        () -> MonoidsKernels.meanVar(100, x, empties(2)));
    assertTrue(length.getMessage().startsWith("meanVar: argument 's'"), length.getMessage());

  }

  @Test
  void aBucketOutsideTheArrayThrowsAsInJavaAndLeavesTheRecords() {
    int n = 1 << 18;
    float[] x = Data.floats(16, n, -1f, 1f);
    int[] bucket = new int[n];
    bucket[n / 2] = 5; // k = 5: one past the end
    LogSumExp[] l = new LogSumExp[5];
    java.util.Arrays.fill(l, LogSumExp.empty());
    LogSumExp[] before = l.clone();
    MeanVar[] all = {MeanVar.empty()};
    assertThrows(ArrayIndexOutOfBoundsException.class, () -> MonoidsKernels.bucketLogSumExp(n, 5, x, bucket, l, all));
    assertArrayEquals(before, l, "nothing is stored back");
    assertEquals(MeanVar.empty(), all[0]);
  }
}
