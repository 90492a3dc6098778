package dev.kiln.tests.contraction;

import dev.kiln.testing.Agreement;
import dev.kiln.tests.Data;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The contraction pass's operators ({@link Products}): each generated kernel (library GEMMs plus an
 * epilogue) against its plain-Java loop, within the contraction bound, and the near misses (still
 * loops) exactly. Sizes include zeros, ones and sizes that are not multiples of any block size.
 */
class ProductsTest {
  private static float[] nan(int n) {
    return Data.filled(n, Float.NaN);
  }

  @ParameterizedTest(name = "B={0}, K={1}, N={2}")
  @CsvSource({"1, 1, 1", "0, 3, 4", "3, 0, 4", "3, 4, 0", "7, 33, 65", "130, 257, 129"})
  void denseRelu(int b, int k, int n) {
    float[] x = Data.floats(1, b * k, -1f, 1f);
    float[] w = Data.floats(2, k * n, -1f, 1f);
    float[] bias = Data.floats(3, n, -1f, 1f);
    float[] expected = nan(b * n);
    Products.denseRelu(b, k, n, x, w, bias, expected);
    float[] actual = nan(b * n);
    ProductsKernels.denseRelu(b, k, n, x, w, bias, actual);
    float[] magnitude = nan(b * n);
    dev.kiln.tests.ops.Linear.affine(b, k, n, Agreement.abs(x), Agreement.abs(w), Agreement.abs(bias), magnitude);
    Agreement.assertWithinContraction(expected, actual, magnitude, k);
  }

  @ParameterizedTest(name = "M={0}, K={1}, N={2}")
  @CsvSource({"1, 1, 1", "0, 2, 3", "2, 0, 3", "5, 17, 3", "65, 40, 33"})
  void matmulTT(int m, int k, int n) {
    double[] a = Data.doubles(4, k * m, -1, 1);
    double[] b = Data.doubles(5, n * k, -1, 1);
    double[] expected = new double[m * n];
    java.util.Arrays.fill(expected, Double.NaN);
    Products.matmulTT(m, k, n, a, b, expected);
    double[] actual = new double[m * n];
    java.util.Arrays.fill(actual, Double.NaN);
    ProductsKernels.matmulTT(m, k, n, a, b, actual);
    double[] magnitude = new double[m * n];
    Products.matmulTT(m, k, n, Agreement.abs(a), Agreement.abs(b), magnitude);
    Agreement.assertWithinContraction(expected, actual, magnitude, k);
  }

  @ParameterizedTest(name = "B={0}, I={1}, H={2}")
  @CsvSource({"1, 1, 1", "2, 0, 3", "0, 2, 3", "9, 13, 17", "64, 31, 48"})
  void gatesT(int b, int i, int h) {
    float[] x = Data.floats(6, b * i, -1f, 1f);
    float[] hs = Data.floats(7, b * h, -1f, 1f);
    float[] wx = Data.floats(8, i * h, -1f, 1f);
    float[] wh = Data.floats(9, h * h, -1f, 1f);
    float[] bias = Data.floats(10, h, -1f, 1f);
    float[] expected = nan(h * b);
    Products.gatesT(b, i, h, x, hs, wx, wh, bias, expected);
    float[] actual = nan(h * b);
    ProductsKernels.gatesT(b, i, h, x, hs, wx, wh, bias, actual);
    float[] magnitude = nan(h * b);
    Products.gatesT(b, i, h, Agreement.abs(x), Agreement.abs(hs), Agreement.abs(wx), Agreement.abs(wh), Agreement.abs(bias), magnitude);
    Agreement.assertWithinContraction(expected, actual, magnitude, i + h);
  }

  @ParameterizedTest(name = "Q={0}, M={1}, K={2}, N={3}")
  @CsvSource({"1, 1, 1, 1", "0, 2, 2, 2", "3, 0, 2, 2", "3, 5, 7, 9", "4, 17, 33, 20"})
  void batched(int q, int m, int k, int n) {
    float[] a = Data.floats(11, q * m * k, -1f, 1f);
    float[] b = Data.floats(12, q * k * n, -1f, 1f);
    float[] expected = nan(q * m * n);
    Products.batched(q, m, k, n, a, b, expected);
    float[] actual = nan(q * m * n);
    ProductsKernels.batched(q, m, k, n, a, b, actual);
    float[] magnitude = nan(q * m * n);
    Products.batched(q, m, k, n, Agreement.abs(a), Agreement.abs(b), magnitude);
    Agreement.assertWithinContraction(expected, actual, magnitude, k);
  }

  @ParameterizedTest(name = "M={0}, K={1}, N={2}")
  @CsvSource({"1, 1, 1", "2, 2, 3", "5, 9, 7", "33, 40, 17"})
  void window(int m, int k, int n) {
    float[] a = Data.floats(13, m * k, -1f, 1f);
    float[] b = Data.floats(14, k * 2 * n, -1f, 1f);
    float[] expected = nan(m * n);
    Products.window(m, k, n, a, b, expected);
    float[] actual = nan(m * n);
    ProductsKernels.window(m, k, n, a, b, actual);
    float[] magnitude = nan(m * n);
    Products.window(m, k, n, Agreement.abs(a), Agreement.abs(b), magnitude);
    Agreement.assertWithinContraction(expected, actual, magnitude, k);
  }

  /** A masked, scaled term: its left operand computed by a prologue kernel, then one GEMM. */
  @ParameterizedTest(name = "M={0}, K={1}, N={2}")
  @CsvSource({"1, 1, 1", "0, 3, 4", "3, 0, 4", "3, 4, 0", "7, 33, 65", "130, 257, 129"})
  void lowerMasked(int m, int k, int n) {
    float[] a = Data.floats(30, m * k, -1f, 1f);
    float[] b = Data.floats(31, k * n, -1f, 1f);
    float[] expected = nan(m * n);
    Products.lowerMasked(m, k, n, a, 0.75f, b, expected);
    float[] actual = nan(m * n);
    ProductsKernels.lowerMasked(m, k, n, a, 0.75f, b, actual);
    float[] magnitude = nan(m * n);
    Products.lowerMasked(m, k, n, Agreement.abs(a), 0.75f, Agreement.abs(b), magnitude);
    Agreement.assertWithinContraction(expected, actual, magnitude, k);
  }

  /** The same with the operand read down its columns: laid out as read, and transposed by the GEMM. */
  @ParameterizedTest(name = "M={0}, K={1}, N={2}")
  @CsvSource({"1, 1, 1", "0, 3, 4", "3, 0, 4", "3, 4, 0", "9, 17, 5", "65, 130, 33"})
  void upperMaskedT(int m, int k, int n) {
    float[] a = Data.floats(32, k * m, -1f, 1f);
    float[] b = Data.floats(33, k * n, -1f, 1f);
    float[] expected = nan(m * n);
    Products.upperMaskedT(m, k, n, a, b, expected);
    float[] actual = nan(m * n);
    ProductsKernels.upperMaskedT(m, k, n, a, b, actual);
    // |(a + 1) * b| <= (|a| + 1) |b|: the bound's magnitudes from a + 1 >= 0 here (a in [-1, 1])
    float[] magnitude = nan(m * n);
    Products.upperMaskedT(m, k, n, Agreement.abs(a), Agreement.abs(b), magnitude);
    Agreement.assertWithinContraction(expected, actual, magnitude, k);
  }

  /** Two independent sums in one worker: two GEMMs, the second run by the first's epilogue. */
  @ParameterizedTest(name = "M={0}, K={1}, N={2}")
  @CsvSource({"1, 1, 1", "0, 3, 4", "3, 0, 4", "3, 4, 0", "7, 33, 65"})
  void twoSums(int m, int k, int n) {
    float[] a = Data.floats(34, m * k, -1f, 1f);
    float[] b = Data.floats(35, k * n, -1f, 1f);
    float[] c = Data.floats(36, m * k, -1f, 1f);
    float[] d = Data.floats(37, k * n, -1f, 1f);
    float[] ey = nan(m * n);
    float[] ez = nan(m * n);
    Products.twoSums(m, k, n, a, b, c, d, ey, ez);
    float[] y = nan(m * n);
    float[] z = nan(m * n);
    ProductsKernels.twoSums(m, k, n, a, b, c, d, y, z);
    float[] my = nan(m * n);
    float[] mz = nan(m * n);
    Products.twoSums(m, k, n, Agreement.abs(a), Agreement.abs(b), Agreement.abs(c), Agreement.abs(d), my, mz);
    Agreement.assertWithinContraction(ey, y, my, k);
    Agreement.assertWithinContraction(ez, z, mz, k);
  }

  /** Two sums of one masked operand, the second reading the first's prologue's operand transposed. */
  @ParameterizedTest(name = "M={0}, N={1}")
  @CsvSource({"1, 1", "0, 3", "3, 0", "17, 5", "130, 33"})
  void maskedBoth(int m, int n) {
    float[] g = Data.floats(38, m * m, -1f, 1f);
    float[] u = Data.floats(39, m * n, -1f, 1f);
    float[] w = Data.floats(40, m * n, -1f, 1f);
    float[] edu = nan(m * n);
    float[] edw = nan(m * n);
    Products.maskedBoth(m, n, g, u, w, edu, edw);
    float[] du = nan(m * n);
    float[] dw = nan(m * n);
    ProductsKernels.maskedBoth(m, n, g, u, w, du, dw);
    float[] mu = nan(m * n);
    float[] mw = nan(m * n);
    Products.maskedBoth(m, n, Agreement.abs(g), Agreement.abs(u), Agreement.abs(w), mu, mw);
    Agreement.assertWithinContraction(edu, du, mu, m);
    Agreement.assertWithinContraction(edw, dw, mw, m);
  }

  @ParameterizedTest(name = "M={0}, K={1}")
  @CsvSource({"1, 1", "5, 9", "33, 40"})
  void nearMissesStayExactLoops(int m, int k) {
    float[] a = Data.floats(15, m * 2 * k, -1f, 1f);
    float[] x = Data.floats(16, 2 * k, -1f, 1f);
    float[] z = Data.floats(17, k, -1f, 1f);
    float[] a1 = java.util.Arrays.copyOf(a, m * k);
    float[] x1 = java.util.Arrays.copyOf(x, k);
    float[] e = nan(m);
    float[] g = nan(m);
    Products.reversed(m, k, a1, x1, e);
    ProductsKernels.reversed(m, k, a1, x1, g);
    Agreement.assertSame(e, g);
    Products.scaled(m, k, a1, x1, 0.5f, e);
    ProductsKernels.scaled(m, k, a1, x1, 0.5f, g);
    Agreement.assertSame(e, g);
    Products.band(m, k, a1, x1, e);
    ProductsKernels.band(m, k, a1, x1, g);
    Agreement.assertSame(e, g);
    Products.strided(m, k, a, x, e);
    ProductsKernels.strided(m, k, a, x, g);
    Agreement.assertSame(e, g);
    float[] ep = nan(m);
    float[] gp = nan(m);
    Products.partialUsed(m, k, a1, x1, z, e, ep);
    ProductsKernels.partialUsed(m, k, a1, x1, z, g, gp);
    Agreement.assertSame(e, g);
    Agreement.assertSame(ep, gp);
  }
}
