package dev.kiln.lib;

import dev.kiln.testing.Agreement;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link Linear}'s products, source against generated CPU kernel: the kernels are library GEMMs,
 * which sum in another order than the loop, so they agree within the contraction bound.
 */
class LinearTest {
  @ParameterizedTest(name = "B={0}, K={1}, N={2}")
  @CsvSource({
    "1, 1, 1", "2, 3, 4", "0, 3, 4", "3, 0, 4", "3, 4, 0", "1, 301, 1", "64, 33, 301", "5, 300, 7"
  })
  void affine(int b, int k, int n) {
    float[] x = Data.floats(41, b * k);
    float[] w = Data.floats(42, k * n);
    float[] bias = Data.floats(43, n);
    float[] expected = Data.filled(b * n, Float.NaN);
    Linear.affine(b, k, n, x, w, bias, expected);
    float[] actual = Data.filled(b * n, Float.NaN);
    LinearKernels.affine(b, k, n, x, w, bias, actual);
    float[] magnitude = new float[b * n];
    Linear.affine(b, k, n, Agreement.abs(x), Agreement.abs(w), Agreement.abs(bias), magnitude);
    Agreement.assertWithinContraction(expected, actual, magnitude, k);
  }

  @ParameterizedTest(name = "B={0}, K={1}, N={2}")
  @CsvSource({
    "1, 1, 1", "2, 3, 4", "0, 3, 4", "3, 0, 4", "3, 4, 0", "1, 301, 1", "64, 33, 301", "5, 300, 7"
  })
  void matmul(int b, int k, int n) {
    float[] x = Data.floats(44, b * k);
    float[] w = Data.floats(45, k * n);
    float[] expected = Data.filled(b * n, Float.NaN);
    Linear.matmul(b, k, n, x, w, expected);
    float[] actual = Data.filled(b * n, Float.NaN);
    LinearKernels.matmul(b, k, n, x, w, actual);
    float[] magnitude = new float[b * n];
    Linear.matmul(b, k, n, Agreement.abs(x), Agreement.abs(w), magnitude);
    Agreement.assertWithinContraction(expected, actual, magnitude, k);
  }
}
