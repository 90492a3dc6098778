package dev.kiln.tests.types;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code long[]} operators: the generated kernels give the plain methods' values exactly, past 32 bits. */
class LongArraysTest {
  private static long[] longs(long seed, int n) {
    SplittableRandom r = new SplittableRandom(seed);
    long[] a = new long[n];
    for (int i = 0; i < n; i++) {
      a[i] = r.nextLong(-(1L << 50), 1L << 50);
    }
    return a;
  }

  private static long[] filled(int n) {
    long[] a = new long[n];
    Arrays.fill(a, Long.MIN_VALUE + 7);
    return a;
  }

  @ParameterizedTest(name = "N={0}")
  @CsvSource({"0", "1", "17", "100000"})
  void mix(int n) {
    long[] x = longs(101, n);
    long[] expected = filled(n);
    LongArrays.mix(n, x, 0x1234_5678_9ABCL, expected);
    long[] actual = filled(n);
    LongArraysKernels.mix(n, x, 0x1234_5678_9ABCL, actual);
    assertArrayEquals(expected, actual);
  }

  @ParameterizedTest(name = "B={0}, N={1}")
  @CsvSource({"1, 1", "3, 0", "5, 7", "300, 200"})
  void rowStatsAndColumnTotals(int b, int n) {
    long[] x = longs(102, b * n);
    long[] sum = filled(b);
    long[] max = filled(b);
    float[] mean = new float[b];
    LongArrays.rowStats(b, n, x, sum, max, mean);
    long[] sum2 = filled(b);
    long[] max2 = filled(b);
    float[] mean2 = new float[b];
    LongArraysKernels.rowStats(b, n, x, sum2, max2, mean2);
    assertArrayEquals(sum, sum2);
    assertArrayEquals(max, max2);
    assertArrayEquals(mean, mean2);

    long[] total = longs(103, n);
    long[] total2 = total.clone();
    LongArrays.columnTotals(b, n, x, total);
    LongArraysKernels.columnTotals(b, n, x, total2);
    assertArrayEquals(total, total2); // integer sums: any order gives the same bits
  }

  @ParameterizedTest(name = "N={0}")
  @CsvSource({"1", "9", "5000"})
  void seconds(int n) {
    long[] nanos = new long[n];
    for (int i = 0; i < n; i++) {
      nanos[i] = 1_700_000_000_000_000_000L + 123_456_789L * i;
    }
    float[] expected = new float[n];
    LongArrays.seconds(n, nanos, expected);
    float[] actual = new float[n];
    LongArraysKernels.seconds(n, nanos, actual);
    assertArrayEquals(expected, actual);
  }
}
