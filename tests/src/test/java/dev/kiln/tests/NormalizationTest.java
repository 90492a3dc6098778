package dev.kiln.tests;

import static dev.kiln.testing.Agreement.FLOAT_ABS;
import static dev.kiln.testing.Agreement.FLOAT_REL;

import dev.kiln.testing.Agreement;
import dev.kiln.tests.ops.Normalization;
import dev.kiln.tests.ops.NormalizationKernels;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Row-wise softmax and layer norm: several sequential passes in one worker. */
class NormalizationTest {
  @ParameterizedTest(name = "R={0}, N={1}")
  @CsvSource({"1, 1", "3, 5", "0, 5", "5, 0", "1, 5000", "64, 300", "300, 64"})
  void softmax(int r, int n) {
    float[] x = Data.floats(91, r * n, -10f, 10f);
    float[] expected = Data.filled(r * n, Float.NaN);
    Normalization.softmax(r, n, x, expected);
    float[] actual = Data.filled(r * n, Float.NaN);
    NormalizationKernels.softmax(r, n, x, actual);
    Agreement.assertClose(expected, actual, FLOAT_REL, FLOAT_ABS);
  }

  @ParameterizedTest(name = "R={0}, N={1}")
  @CsvSource({"1, 1", "3, 5", "0, 5", "5, 0", "1, 5000", "64, 300", "300, 64"})
  void layerNorm(int r, int n) {
    float[] x = Data.floats(92, r * n, -3f, 5f);
    float[] gamma = Data.floats(93, n, 0.5f, 1.5f);
    float[] beta = Data.floats(94, n);
    float eps = 1e-5f;
    float[] expected = Data.filled(r * n, Float.NaN);
    Normalization.layerNorm(r, n, x, gamma, beta, eps, expected);
    float[] actual = Data.filled(r * n, Float.NaN);
    NormalizationKernels.layerNorm(r, n, x, gamma, beta, eps, actual);
    Agreement.assertClose(expected, actual, FLOAT_REL, FLOAT_ABS);
  }
}
