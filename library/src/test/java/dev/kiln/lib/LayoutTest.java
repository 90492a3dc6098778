package dev.kiln.lib;

import dev.kiln.testing.Agreement;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every {@link Layout} operator, source against generated CPU kernel: data movement is exact. */
class LayoutTest {
  @ParameterizedTest(name = "B={0}, N={1}")
  @CsvSource({"1, 1", "1, 9", "9, 1", "3, 5", "0, 5", "5, 0", "64, 301", "301, 64"})
  void split2(int b, int n) {
    float[] x = Data.floats(31, b * 2 * n);
    float[] lo = Data.filled(b * n, Float.NaN);
    float[] hi = Data.filled(b * n, Float.NaN);
    Layout.split2(b, n, x, lo, hi);
    float[] kLo = Data.filled(b * n, Float.NaN);
    float[] kHi = Data.filled(b * n, Float.NaN);
    LayoutKernels.split2(b, n, x, kLo, kHi);
    Agreement.assertSame(lo, kLo);
    Agreement.assertSame(hi, kHi);
  }

  @ParameterizedTest(name = "B={0}, N={1}")
  @CsvSource({"1, 1", "1, 9", "9, 1", "3, 5", "0, 5", "5, 0", "64, 301", "301, 64"})
  void concat2(int b, int n) {
    float[] a = Data.floats(32, b * n);
    float[] c = Data.floats(33, b * n);
    float[] expected = Data.filled(b * 2 * n, Float.NaN);
    Layout.concat2(b, n, a, c, expected);
    float[] actual = Data.filled(b * 2 * n, Float.NaN);
    LayoutKernels.concat2(b, n, a, c, actual);
    Agreement.assertSame(expected, actual);
  }

  @ParameterizedTest(name = "B={0}, H={1}")
  @CsvSource({"1, 1", "1, 9", "9, 1", "3, 5", "0, 5", "5, 0", "64, 75", "75, 64"})
  void split4(int b, int h) {
    float[] x = Data.floats(34, b * 4 * h);
    float[][] expected = new float[4][];
    float[][] actual = new float[4][];
    for (int q = 0; q < 4; q++) {
      expected[q] = Data.filled(b * h, Float.NaN);
      actual[q] = Data.filled(b * h, Float.NaN);
    }
    Layout.split4(b, h, x, expected[0], expected[1], expected[2], expected[3]);
    LayoutKernels.split4(b, h, x, actual[0], actual[1], actual[2], actual[3]);
    for (int q = 0; q < 4; q++) {
      Agreement.assertSame(expected[q], actual[q]);
    }
  }

  @ParameterizedTest(name = "R={0}, C={1}")
  @CsvSource({"1, 1", "1, 9", "9, 1", "3, 5", "0, 5", "5, 0", "64, 301", "301, 64"})
  void transpose(int r, int c) {
    float[] x = Data.floats(35, r * c);
    float[] expected = Data.filled(r * c, Float.NaN);
    Layout.transpose(r, c, x, expected);
    float[] actual = Data.filled(r * c, Float.NaN);
    LayoutKernels.transpose(r, c, x, actual);
    Agreement.assertSame(expected, actual);
  }

  @ParameterizedTest(name = "B={0}, N={1}, K={2}, offset={3}")
  @CsvSource({
    "1, 1, 1, 0",
    "1, 9, 1, 8",
    "3, 5, 2, 0",
    "3, 5, 2, 3",
    "3, 5, 5, 0",
    "3, 5, 0, 5",
    "0, 5, 2, 1",
    "64, 301, 100, 200",
    "301, 64, 63, 1"
  })
  void slice(int b, int n, int k, int offset) {
    float[] x = Data.floats(36, b * n);
    float[] expected = Data.filled(b * k, Float.NaN);
    Layout.slice(b, n, k, x, offset, expected);
    float[] actual = Data.filled(b * k, Float.NaN);
    LayoutKernels.slice(b, n, k, x, offset, actual);
    Agreement.assertSame(expected, actual);
  }
}
