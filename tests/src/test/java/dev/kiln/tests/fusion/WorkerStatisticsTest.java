package dev.kiln.tests.fusion;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.testing.Agreement;
import dev.kiln.tests.Data;
import dev.kiln.tests.ops.NormalizationKernels;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The training forms of a row kernel whose gradient would compute its row statistics again:
 * {@code softmaxSaving} also stores each row's maximum and sum of exponentials, {@code
 * layerNormSaving} each row's sum and sum of squared deviations, and the {@code GradSaved} forms read
 * them instead of running those loops. The saved values must be the source's (the same loops in the
 * same order), and the saved backward pass must give the plain backward pass's bits.
 */
class WorkerStatisticsTest {
  private static final String LISTING = "META-INF/kiln/dev/kiln/tests/ops/Normalization.gradients.ir.txt";

  @ParameterizedTest(name = "R={0}, N={1}")
  @CsvSource({"1, 1", "3, 5", "5, 0", "1, 5000", "64, 300", "37, 129"})
  void softmaxSavesItsRowMaximumAndSumAndItsGradientReadsThem(int r, int n) {
    float[] x = Data.floats(71, r * n, -10f, 10f);
    float[] y = Data.filled(r * n, Float.NaN);
    NormalizationKernels.softmax(r, n, x, y);
    float[] y2 = Data.filled(r * n, Float.NaN);
    float[] max = Data.filled(r, Float.NaN);
    float[] sum = Data.filled(r, Float.NaN);
    NormalizationKernels.softmaxSaving(r, n, x, y2, max, sum);
    Agreement.assertSame(y, y2);
    float[] expectedMax = new float[r];
    float[] expectedSum = new float[r];
    for (int i = 0; i < r; i++) {
      float m = -3.4028235e38f; // the operator's start, Normalization.LOWEST
      for (int k = 0; k < n; k++) {
        m = Math.max(m, x[i * n + k]);
      }
      float s = 0f;
      for (int k = 0; k < n; k++) {
        s += dev.kiln.KMath.exp(x[i * n + k] - m);
      }
      expectedMax[i] = m;
      expectedSum[i] = s;
    }
    Agreement.assertSame(expectedMax, max);
    Agreement.assertSame(expectedSum, sum);

    float[] dy = Data.floats(72, r * n);
    float[] dx = Data.filled(r * n, Float.NaN);
    NormalizationKernels.softmaxGrad(r, n, x, y, dy, dx);
    float[] dx2 = Data.filled(r * n, Float.NaN);
    NormalizationKernels.softmaxGradSaved(r, n, x, y, max, sum, dy, dx2);
    Agreement.assertSame(dx, dx2);
  }

  @ParameterizedTest(name = "R={0}, N={1}")
  @CsvSource({"1, 1", "3, 5", "5, 0", "1, 5000", "64, 300", "37, 129"})
  void layerNormSavesItsRowSumsAndItsGradientReadsThem(int r, int n) {
    float[] x = Data.floats(73, r * n, -3f, 5f);
    float[] gamma = Data.floats(74, n, 0.5f, 1.5f);
    float[] beta = Data.floats(75, n);
    float eps = 1e-5f;
    float[] y = Data.filled(r * n, Float.NaN);
    NormalizationKernels.layerNorm(r, n, x, gamma, beta, eps, y);
    float[] y2 = Data.filled(r * n, Float.NaN);
    float[] sums = Data.filled(r, Float.NaN);
    float[] squares = Data.filled(r, Float.NaN);
    NormalizationKernels.layerNormSaving(r, n, x, gamma, beta, eps, y2, sums, squares);
    Agreement.assertSame(y, y2);
    float[] expectedSums = new float[r];
    float[] expectedSquares = new float[r];
    for (int i = 0; i < r; i++) {
      float s = 0f;
      for (int k = 0; k < n; k++) {
        s += x[i * n + k];
      }
      float mean = s / n;
      float v = 0f;
      for (int k = 0; k < n; k++) {
        float d = x[i * n + k] - mean;
        v += d * d;
      }
      expectedSums[i] = s;
      expectedSquares[i] = v;
    }
    Agreement.assertSame(expectedSums, sums);
    Agreement.assertSame(expectedSquares, squares);

    float[] dy = Data.floats(76, r * n);
    float[] dx = Data.filled(r * n, Float.NaN);
    float[] dgamma = Data.filled(n, Float.NaN);
    float[] dbeta = Data.filled(n, Float.NaN);
    NormalizationKernels.layerNormGrad(r, n, x, gamma, beta, eps, y, dy, dx, dgamma, dbeta);
    float[] dx2 = Data.filled(r * n, Float.NaN);
    float[] dgamma2 = Data.filled(n, Float.NaN);
    float[] dbeta2 = Data.filled(n, Float.NaN);
    NormalizationKernels.layerNormGradSaved(r, n, x, gamma, beta, eps, y, sums, squares, dy, dx2, dgamma2, dbeta2);
    Agreement.assertSame(dx, dx2);
    Agreement.assertSame(dgamma, dgamma2);
    Agreement.assertSame(dbeta, dbeta2);
  }

  /**
   * A product written as a loop ({@code acc = bias[n]; acc += x·w}, then relu): its training forms
   * save {@code acc}, and the backward pass takes its relu mask from it instead of multiplying again.
   * The products are GEMM leaves where they are large enough, so the saved sum and the gradients are
   * compared within a product's rounding.
   */
  @ParameterizedTest(name = "B={0}, K={1}, N={2}")
  @CsvSource({"1, 1, 1", "5, 7, 3", "33, 20, 17", "64, 128, 96"})
  void aProductsSavedSumServesItsBackwardPass(int b, int k, int n) {
    float[] x = Data.floats(77, b * k, -1f, 1f);
    float[] w = Data.floats(78, k * n, -1f, 1f);
    float[] bias = Data.floats(79, n, -0.5f, 0.5f);
    float[] out = Data.filled(b * n, Float.NaN);
    float[] out2 = Data.filled(b * n, Float.NaN);
    float[] acc = Data.filled(b * n, Float.NaN);
    dev.kiln.tests.ops.LinearKernels.affineRelu(b, k, n, x, w, bias, out);
    dev.kiln.tests.ops.LinearKernels.affineReluSaving(b, k, n, x, w, bias, out2, acc);
    Agreement.assertClose(out, out2, 1e-5, 1e-6);
    float[] expectedAcc = new float[b * n];
    float[] magnitude = new float[b * n];
    for (int i = 0; i < b; i++) {
      for (int j = 0; j < n; j++) {
        float a = bias[j];
        double m = Math.abs(bias[j]);
        for (int q = 0; q < k; q++) {
          a += x[i * k + q] * w[q * n + j];
          m += Math.abs((double) x[i * k + q] * w[q * n + j]);
        }
        expectedAcc[i * n + j] = a;
        magnitude[i * n + j] = (float) m;
      }
    }
    // the GEMM sums in the BLAS's order (OpenBLAS's on AMD differed from the loop by 7e-5
    // relative where the sum cancels): within a product's rounding, not a fixed tolerance
    Agreement.assertWithinContraction(expectedAcc, acc, magnitude, k);
    float[] dout = Data.floats(80, b * n);
    float[][] plain = {Data.filled(b * k, Float.NaN), Data.filled(k * n, Float.NaN), Data.filled(n, Float.NaN)};
    float[][] saved = {Data.filled(b * k, Float.NaN), Data.filled(k * n, Float.NaN), Data.filled(n, Float.NaN)};
    dev.kiln.tests.ops.LinearKernels.affineReluGrad(b, k, n, x, w, bias, out, dout, plain[0], plain[1], plain[2]);
    dev.kiln.tests.ops.LinearKernels.affineReluGradSaved(b, k, n, x, w, bias, out, acc, dout, saved[0], saved[1], saved[2]);
    for (int i = 0; i < 3; i++) {
      Agreement.assertClose(plain[i], saved[i], 1e-5, 1e-6);
    }
  }

  @Test
  void theSavedGradientRunsNoneOfTheForwardLoops() throws IOException {
    String listing = resource(LISTING);
    String plain = section(listing, "# kernel softmaxGrad_k0 ");
    String saved = section(listing, "# kernel softmaxGradSaved_k0 ");
    assertTrue(plain.contains("carry (m = ") && plain.contains("carry (sum = "), plain);
    assertFalse(saved.contains("carry (m = ") || saved.contains("carry (sum = "), saved);
    assertTrue(saved.contains("load mSaved[r]") && saved.contains("load sumSaved[r]"), saved);
    String norm = section(listing, "# kernel layerNormGradSaved_k0 ");
    assertFalse(norm.contains("carry (mean = ") || norm.contains("carry (var = "), norm);
  }

  private static String section(String listing, String header) {
    int at = listing.indexOf(header);
    assertTrue(at >= 0, header + " is not in the listing");
    int end = listing.indexOf("\n\n", at);
    return end < 0 ? listing.substring(at) : listing.substring(at, end);
  }

  private static String resource(String path) throws IOException {
    try (InputStream in = WorkerStatisticsTest.class.getClassLoader().getResourceAsStream(path)) {
      if (in == null) {
        throw new IOException(path + " is missing");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
