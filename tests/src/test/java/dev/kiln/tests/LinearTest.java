package dev.kiln.tests;

import static dev.kiln.testing.Agreement.FLOAT_ABS;
import static dev.kiln.testing.Agreement.FLOAT_REL;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.kiln.testing.Agreement;
import dev.kiln.tests.ops.Linear;
import dev.kiln.tests.ops.LinearKernels;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * saxpy, matrix-vector and matrix-matrix products, bias broadcast: plain Java against kernels. The
 * products run as library GEMMs, which sum in another order than the loop: they agree within the
 * contraction bound ({@link Agreement#assertWithinContraction}).
 */
class LinearTest {
  @ParameterizedTest(name = "N={0}, a={1}")
  @CsvSource({"0, 2.5", "1, 2.5", "7, -1", "1000, 0", "100003, 2.5"})
  void saxpy(int n, float a) {
    float[] x = Data.floats(51, n);
    float[] y = Data.floats(52, n);
    float[] expected = Data.filled(n, Float.NaN);
    Linear.saxpy(n, a, x, y, expected);
    float[] actual = Data.filled(n, Float.NaN);
    LinearKernels.saxpy(n, a, x, y, actual);
    Agreement.assertClose(expected, actual, FLOAT_REL, FLOAT_ABS);
  }

  @ParameterizedTest(name = "M={0}, K={1}")
  @CsvSource({"1, 1", "3, 5", "0, 5", "5, 0", "17, 1", "64, 300", "300, 64", "1, 5000"})
  void matvec(int m, int k) {
    float[] a = Data.floats(53, m * k);
    float[] x = Data.floats(54, k);
    float[] aBefore = a.clone();
    float[] expected = Data.filled(m, Float.NaN);
    Linear.matvec(m, k, a, x, expected);
    float[] actual = Data.filled(m, Float.NaN);
    LinearKernels.matvec(m, k, a, x, actual);
    float[] magnitude = new float[m];
    Linear.matvec(m, k, Agreement.abs(a), Agreement.abs(x), magnitude);
    Agreement.assertWithinContraction(expected, actual, magnitude, k);
    assertArrayEquals(aBefore, a, "the kernel modified a");
  }

  @ParameterizedTest(name = "B={0}, K={1}, N={2}")
  @CsvSource({"1, 1, 1", "2, 3, 4", "0, 3, 4", "3, 0, 4", "3, 4, 0", "64, 33, 300", "5, 300, 7"})
  void affine(int b, int k, int n) {
    float[] x = Data.floats(55, b * k);
    float[] w = Data.floats(56, k * n);
    float[] bias = Data.floats(57, n);
    float[] expected = Data.filled(b * n, Float.NaN);
    Linear.affine(b, k, n, x, w, bias, expected);
    float[] actual = Data.filled(b * n, Float.NaN);
    LinearKernels.affine(b, k, n, x, w, bias, actual);
    float[] magnitude = new float[b * n];
    Linear.affine(b, k, n, Agreement.abs(x), Agreement.abs(w), Agreement.abs(bias), magnitude);
    Agreement.assertWithinContraction(expected, actual, magnitude, k);
  }

  /** Calls Activations.relu from the worker: an operator of another class, inlined. */
  @ParameterizedTest(name = "B={0}, K={1}, N={2}")
  @CsvSource({"1, 1, 1", "2, 3, 4", "3, 0, 4", "64, 33, 300", "5, 300, 7"})
  void affineRelu(int b, int k, int n) {
    float[] x = Data.floats(58, b * k);
    float[] w = Data.floats(59, k * n);
    float[] bias = Data.floats(60, n);
    float[] expected = Data.filled(b * n, Float.NaN);
    Linear.affineRelu(b, k, n, x, w, bias, expected);
    float[] actual = Data.filled(b * n, Float.NaN);
    LinearKernels.affineRelu(b, k, n, x, w, bias, actual);
    float[] magnitude = new float[b * n];
    Linear.affine(b, k, n, Agreement.abs(x), Agreement.abs(w), Agreement.abs(bias), magnitude);
    Agreement.assertWithinContraction(expected, actual, magnitude, k);
  }

  @ParameterizedTest(name = "B={0}, N={1}")
  @CsvSource({"1, 1", "3, 5", "0, 5", "5, 0", "64, 300", "300, 64", "1000, 1"})
  void addBias(int b, int n) {
    float[] x = Data.floats(61, b * n);
    float[] bias = Data.floats(62, n);
    float[] expected = Data.filled(b * n, Float.NaN);
    Linear.addBias(b, n, x, bias, expected);
    float[] actual = Data.filled(b * n, Float.NaN);
    LinearKernels.addBias(b, n, x, bias, actual);
    Agreement.assertClose(expected, actual, FLOAT_REL, FLOAT_ABS);
  }
}
