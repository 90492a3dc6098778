package dev.kiln.lib;

import dev.kiln.testing.Agreement;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link Scans}: the cumulative sum's CPU kernel against its source bit for bit, its hand-written
 * backward pass against the reverse running sum written here and against central differences.
 */
class ScansTest {
  @ParameterizedTest(name = "B={0} N={1}")
  @CsvSource({"1, 1", "3, 7", "64, 1000", "300, 33", "2, 0"})
  void cumsumIsItsSourceBitForBit(int b, int n) {
    float[] x = Data.floats(61, b * n, -2f, 2f);
    float[] expected = Data.filled(b * n, Float.NaN);
    float[] actual = Data.filled(b * n, Float.NaN);
    Scans.cumsum(b, n, x, expected);
    ScansKernels.cumsum(b, n, x, actual);
    Agreement.assertSame(expected, actual);
  }

  @ParameterizedTest(name = "B={0} N={1}")
  @CsvSource({"1, 1", "4, 9", "33, 200"})
  void theBackwardPassIsTheReverseRunningSumAndAgreesWithFiniteDifferences(int b, int n) {
    float[] x = Data.floats(62, b * n, -1f, 1f);
    float[] y = new float[b * n];
    Scans.cumsum(b, n, x, y);
    float[] dy = Data.floats(63, b * n, -1f, 1f);
    float[] dx = Data.filled(b * n, Float.NaN);
    ScansKernels.cumsumGrad(b, n, x, y, dy, dx);
    float[] expected = new float[b * n];
    for (int r = 0; r < b; r++) {
      float s = 0f;
      for (int k = n - 1; k >= 0; k--) {
        s += dy[r * n + k];
        expected[r * n + k] = s;
      }
    }
    Agreement.assertSame(expected, dx);
    FiniteDifferences.checkDirectional(dy, dx, x, v -> {
      float[] out = new float[b * n];
      Scans.cumsum(b, n, v, out);
      return out;
    });
  }
}
