package dev.kiln.tests.fusion;

import dev.kiln.testing.Agreement;
import dev.kiln.tests.Data;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Composites whose callees live in another jar (the standard library): fused launcher against the
 * composite as plain Java. Bit-identical except where a matrix product is involved: the library's
 * affine runs as a GEMM, within the contraction bound of its loop.
 */
class AcrossJarsTest {
  private static float[] nan(int n) {
    return Data.filled(n, Float.NaN);
  }

  @ParameterizedTest(name = "B={0}, N={1}")
  @CsvSource({"1, 1", "3, 7", "37, 300", "300, 5"})
  void softmax(int b, int n) {
    float[] x = Data.floats(11, b * n, -6f, 6f);
    float[] x0 = x.clone();
    float[] expected = nan(b * n);
    AcrossJars.softmax(b, n, x, expected);
    float[] actual = nan(b * n);
    AcrossJarsKernels.softmax(b, n, x, actual);
    Agreement.assertSame(expected, actual);
    Agreement.assertSame(x0, x);
  }

  @ParameterizedTest(name = "B={0}, K={1}, N={2}")
  @CsvSource({"1, 1, 1", "3, 5, 7", "33, 17, 40", "300, 8, 9"})
  void denseReluT(int b, int k, int n) {
    float[] x = Data.floats(12, b * k, -1f, 1f);
    float[] w = Data.floats(13, k * n, -1f, 1f);
    float[] bias = Data.floats(14, n, -0.5f, 0.5f);
    float[] expected = nan(n * b);
    AcrossJars.denseReluT(b, k, n, x, w, bias, expected);
    float[] actual = nan(n * b);
    AcrossJarsKernels.denseReluT(b, k, n, x, w, bias, actual);
    float[] magnitude = nan(n * b);
    AcrossJars.denseReluT(b, k, n, Agreement.abs(x), Agreement.abs(w), Agreement.abs(bias), magnitude);
    Agreement.assertWithinContraction(expected, actual, magnitude, k);
  }

  @ParameterizedTest(name = "B={0}, N={1}")
  @CsvSource({"1, 1", "2, 9", "37, 300"})
  void ovl(int b, int n) {
    float[] x = Data.floats(15, 2 * b * n, -1f, 1f);
    float[] y = Data.floats(16, b * n, -1f, 1f);
    float[] expected = nan(2 * b * n);
    AcrossJars.ovl(b, n, x, y, expected);
    float[] actual = nan(2 * b * n);
    AcrossJarsKernels.ovl(b, n, x, y, actual);
    Agreement.assertSame(expected, actual);
  }
}
