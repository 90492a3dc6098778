package dev.kiln.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.kiln.testing.Agreement;
import dev.kiln.tests.ops.Layout;
import dev.kiln.tests.ops.LayoutKernels;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Transposes, a gather, int arithmetic: data movement must be exact. */
class LayoutTest {
  @ParameterizedTest(name = "R={0}, C={1}")
  @CsvSource({"1, 1", "1, 9", "9, 1", "3, 5", "0, 5", "5, 0", "64, 300", "300, 64"})
  void transpose(int r, int c) {
    float[] x = Data.floats(71, r * c);
    float[] expected = Data.filled(r * c, Float.NaN);
    Layout.transpose(r, c, x, expected);
    float[] actual = Data.filled(r * c, Float.NaN);
    LayoutKernels.transpose(r, c, x, actual);
    Agreement.assertSame(expected, actual);
  }

  @ParameterizedTest(name = "B={0}, M={1}, N={2}")
  @CsvSource({
    "1, 1, 1",
    "2, 3, 5",
    "0, 2, 2",
    "2, 0, 2",
    "2, 2, 0",
    "4, 64, 70",
    "70, 4, 64",
    "1, 300, 3"
  })
  void batchTranspose(int b, int m, int n) {
    float[] x = Data.floats(72, b * m * n);
    float[] expected = Data.filled(b * m * n, Float.NaN);
    Layout.batchTranspose(b, m, n, x, expected);
    float[] actual = Data.filled(b * m * n, Float.NaN);
    LayoutKernels.batchTranspose(b, m, n, x, actual);
    Agreement.assertSame(expected, actual);
  }

  /** Offsets of {@code N / 2}: the forward pass exact, and the derived gradient (a gather at {@code j ± N / 2}) exactly the transposed movement. */
  @ParameterizedTest(name = "B={0}, N={1}")
  @CsvSource({"1, 1", "1, 2", "3, 7", "2, 8", "0, 5", "5, 0", "33, 301", "4, 4096"})
  void rotateHalf(int b, int n) {
    float[] x = Data.floats(75, b * n);
    float[] expected = Data.filled(b * n, Float.NaN);
    Layout.rotateHalf(b, n, x, expected);
    float[] actual = Data.filled(b * n, Float.NaN);
    LayoutKernels.rotateHalf(b, n, x, actual);
    Agreement.assertSame(expected, actual);

    float[] dy = Data.floats(76, b * n);
    float[] dxExpected = new float[b * n];
    for (int r = 0; r < b; r++) {
      for (int i = 0; i < n; i++) {
        int from = i < n / 2 ? i + n / 2 : i - n / 2;
        dxExpected[r * n + from] += i < n / 2 ? -dy[r * n + i] : dy[r * n + i];
      }
    }
    float[] dx = Data.filled(b * n, Float.NaN);
    LayoutKernels.rotateHalfGrad(b, n, x, expected, dy, dx);
    Agreement.assertSame(dxExpected, dx);
  }

  @ParameterizedTest(name = "M={0}, N={1}")
  @CsvSource({"1, 1", "1, 50", "50, 1", "7, 13", "0, 0", "5, 0", "1000, 100003"})
  void gather(int m, int n) {
    float[] x = Data.floats(73, m);
    int[] idx = Data.ints(74, n, 0, Math.max(m, 1));
    float[] expected = Data.filled(n, Float.NaN);
    Layout.gather(m, n, x, idx, expected);
    float[] actual = Data.filled(n, Float.NaN);
    LayoutKernels.gather(m, n, x, idx, actual);
    Agreement.assertSame(expected, actual);
  }

  @ParameterizedTest(name = "N={0}, d={1}")
  @CsvSource({
    "0, 7",
    "1, 7",
    "9, -3",
    "1000, 1",
    "100003, 7",
    "100003, 2147483647",
    "5, -2147483648"
  })
  void intMix(int n, int d) {
    int[] a = Data.anyInts(75, n);
    int[] b = Data.anyInts(76, n);
    int[] expected = new int[n];
    Layout.intMix(n, a, b, d, expected);
    int[] actual = new int[n];
    LayoutKernels.intMix(n, a, b, d, actual);
    assertArrayEquals(expected, actual);
  }
}
