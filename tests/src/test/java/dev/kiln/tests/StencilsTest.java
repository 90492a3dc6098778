package dev.kiln.tests;

import static dev.kiln.testing.Agreement.DOUBLE_ABS;
import static dev.kiln.testing.Agreement.DOUBLE_REL;
import static dev.kiln.testing.Agreement.FLOAT_ABS;
import static dev.kiln.testing.Agreement.FLOAT_REL;

import dev.kiln.testing.Agreement;
import dev.kiln.tests.ops.Stencils;
import dev.kiln.tests.ops.StencilsKernels;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Stencils with boundary conditions: plain Java against kernels, the edges included. */
class StencilsTest {
  @ParameterizedTest(name = "N={0}")
  @ValueSource(ints = {0, 1, 2, 3, 1000, 100_003})
  void blur3(int n) {
    float[] x = Data.floats(81, n);
    float[] expected = Data.filled(n, Float.NaN);
    Stencils.blur3(n, x, expected);
    float[] actual = Data.filled(n, Float.NaN);
    StencilsKernels.blur3(n, x, actual);
    Agreement.assertClose(expected, actual, FLOAT_REL, FLOAT_ABS);
  }

  @ParameterizedTest(name = "N={0}")
  @ValueSource(ints = {0, 1, 5, 100_003})
  void conv3(int n) {
    float[] x = Data.floats(82, n + 2);
    float[] k = {0.25f, -0.5f, 1.5f};
    float[] expected = Data.filled(n, Float.NaN);
    Stencils.conv3(n, x, k, expected);
    float[] actual = Data.filled(n, Float.NaN);
    StencilsKernels.conv3(n, x, k, actual);
    Agreement.assertClose(expected, actual, FLOAT_REL, FLOAT_ABS);
  }

  @ParameterizedTest(name = "H={0}, W={1}")
  @CsvSource({
    "1, 1", "2, 2", "3, 3", "1, 50", "50, 1", "0, 5", "5, 0", "4, 7", "64, 300", "300, 64"
  })
  void laplace2d(int h, int w) {
    float[] u = Data.floats(83, h * w);
    float[] expected = Data.filled(h * w, Float.NaN);
    Stencils.laplace2d(h, w, u, expected);
    float[] actual = Data.filled(h * w, Float.NaN);
    StencilsKernels.laplace2d(h, w, u, actual);
    Agreement.assertClose(expected, actual, FLOAT_REL, FLOAT_ABS);
  }

  @ParameterizedTest(name = "N={0}, alpha={1}")
  @CsvSource({"0, 0.25", "1, 0.25", "2, 0.25", "5, 0.1", "100001, 0.25"})
  void heatStep(int n, double alpha) {
    double[] u = Data.doubles(84, n, 0.0, 100.0);
    double[] expected = Data.filledDoubles(n, Double.NaN);
    Stencils.heatStep(n, u, alpha, expected);
    double[] actual = Data.filledDoubles(n, Double.NaN);
    StencilsKernels.heatStep(n, u, alpha, actual);
    Agreement.assertClose(expected, actual, DOUBLE_REL, DOUBLE_ABS);
  }
}
