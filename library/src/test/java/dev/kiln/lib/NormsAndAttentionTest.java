package dev.kiln.lib;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kiln.testing.Agreement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link Norms} and {@link Attention}: the CPU kernels against their sources (bit for bit where the
 * kernel keeps the source's arithmetic; within a product's rounding where a matrix product runs as
 * a library GEMM), and the derived gradients against central differences of the plain Java.
 */
class NormsAndAttentionTest {
  @ParameterizedTest(name = "B={0} N={1}")
  @CsvSource({"1, 1", "5, 33", "64, 1000"})
  void normsAreTheirSourcesBitForBit(int b, int n) {
    float[] x = Data.floats(41, b * n, -3f, 3f);
    float[] gamma = Data.floats(42, n, 0.5f, 1.5f);
    float[] beta = Data.floats(43, n, -0.5f, 0.5f);
    float[] expected = new float[b * n];
    float[] actual = new float[b * n];
    Norms.layerNorm(b, n, x, gamma, beta, expected);
    NormsKernels.layerNorm(b, n, x, gamma, beta, actual);
    Agreement.assertSame(expected, actual);
    Norms.rmsNorm(b, n, x, gamma, expected);
    NormsKernels.rmsNorm(b, n, x, gamma, actual);
    Agreement.assertSame(expected, actual);
  }

  /**
   * The training forms of the row kernels: the forward pass also stores each row's sums, and the
   * backward pass that reads them gives the plain backward pass's bits.
   */
  @ParameterizedTest(name = "B={0} N={1}")
  @CsvSource({"1, 1", "5, 33", "64, 1000"})
  void theNormsSavedBackwardPassesAreThePlainOnes(int b, int n) {
    float[] x = Data.floats(51, b * n, -3f, 3f);
    float[] gamma = Data.floats(52, n, 0.5f, 1.5f);
    float[] beta = Data.floats(53, n, -0.5f, 0.5f);
    float[] dy = Data.floats(54, b * n, -1f, 1f);
    float[] y = new float[b * n];
    float[] y2 = new float[b * n];
    float[] sums = new float[b];
    float[] squares = new float[b];
    NormsKernels.layerNorm(b, n, x, gamma, beta, y);
    NormsKernels.layerNormSaving(b, n, x, gamma, beta, y2, sums, squares);
    Agreement.assertSame(y, y2);
    float[][] plain = {new float[b * n], new float[n], new float[n]};
    float[][] saved = {new float[b * n], new float[n], new float[n]};
    NormsKernels.layerNormGrad(b, n, x, gamma, beta, y, dy, plain[0], plain[1], plain[2]);
    NormsKernels.layerNormGradSaved(b, n, x, gamma, beta, y, sums, squares, dy, saved[0], saved[1], saved[2]);
    for (int i = 0; i < 3; i++) {
      Agreement.assertSame(plain[i], saved[i]);
    }

    float[] ss = new float[b];
    NormsKernels.rmsNormSaving(b, n, x, gamma, y2, ss);
    NormsKernels.rmsNorm(b, n, x, gamma, y);
    Agreement.assertSame(y, y2);
    NormsKernels.rmsNormGrad(b, n, x, gamma, y, dy, plain[0], plain[1]);
    NormsKernels.rmsNormGradSaved(b, n, x, gamma, y, ss, dy, saved[0], saved[1]);
    Agreement.assertSame(plain[0], saved[0]);
    Agreement.assertSame(plain[1], saved[1]);
  }

  @Test
  void rmsNormsGradientAgreesWithFiniteDifferences() {
    int b = 4;
    int n = 9;
    float[] x = Data.floats(44, b * n, -2f, 2f);
    float[] gamma = Data.floats(45, n, 0.5f, 1.5f);
    float[] y = new float[b * n];
    Norms.rmsNorm(b, n, x, gamma, y);
    float[] dy = Data.floats(46, b * n, -1f, 1f);
    float[] dx = new float[b * n];
    float[] dgamma = new float[n];
    NormsKernels.rmsNormGrad(b, n, x, gamma, y, dy, dx, dgamma);
    FiniteDifferences.checkDirectional(dy, dx, x, v -> {
      float[] out = new float[b * n];
      Norms.rmsNorm(b, n, v, gamma, out);
      return out;
    });
    FiniteDifferences.checkDirectional(dy, dgamma, gamma, v -> {
      float[] out = new float[b * n];
      Norms.rmsNorm(b, n, x, v, out);
      return out;
    });
  }

  @Test
  void causalAttentionAgreesWithItsSourceAndItsGradientWithFiniteDifferences() {
    int b = 2;
    int t = 5;
    int d = 4;
    float[] q = Data.floats(47, b * t * d, -1f, 1f);
    float[] k = Data.floats(48, b * t * d, -1f, 1f);
    float[] v = Data.floats(49, b * t * d, -1f, 1f);
    float[] expected = new float[b * t * d];
    float[] out = new float[b * t * d];
    Attention.causalAttention(b, t, d, q, k, v, expected);
    AttentionKernels.causalAttention(b, t, d, q, k, v, out);
    Agreement.assertClose(expected, out, 1e-5, 1e-6);
    // the first position attends to itself only: its output is its own value
    for (int e = 0; e < d; e++) {
      assertEquals(v[e], out[e], 1e-6);
    }
    float[] scores = new float[b * t * t];
    AttentionKernels.causalScores(b, t, d, q, k, scores);
    assertEquals(Float.NEGATIVE_INFINITY, scores[1], "above the diagonal");
    float[] dout = Data.floats(50, b * t * d, -1f, 1f);
    float[] dq = new float[b * t * d];
    float[] dk = new float[b * t * d];
    float[] dv = new float[b * t * d];
    AttentionKernels.causalAttentionGrad(b, t, d, q, k, v, out, dout, dq, dk, dv);
    FiniteDifferences.checkDirectional(dout, dq, q, x -> run(b, t, d, x, k, v));
    FiniteDifferences.checkDirectional(dout, dk, k, x -> run(b, t, d, q, x, v));
    FiniteDifferences.checkDirectional(dout, dv, v, x -> run(b, t, d, q, k, x));
  }

  /**
   * Attention's training forms: the forward pass hands over the scores, the weights and the
   * softmax's row maxima and sums, and the backward pass that reads them gives the plain one's
   * results (it sums no score row again; the products are GEMM leaves either way, so within their
   * rounding).
   */
  @ParameterizedTest(name = "B={0} T={1} D={2}")
  @CsvSource({"1, 1, 1", "2, 5, 4", "3, 37, 16"})
  void causalAttentionsSavedBackwardPassIsThePlainOne(int b, int t, int d) {
    float[] q = Data.floats(61, b * t * d, -1f, 1f);
    float[] k = Data.floats(62, b * t * d, -1f, 1f);
    float[] v = Data.floats(63, b * t * d, -1f, 1f);
    float[] dout = Data.floats(64, b * t * d, -1f, 1f);
    float[] out = new float[b * t * d];
    float[] out2 = new float[b * t * d];
    float[] scores = new float[b * t * t];
    float[] weights = new float[b * t * t];
    float[] max = new float[b * t];
    float[] sum = new float[b * t];
    AttentionKernels.causalAttention(b, t, d, q, k, v, out);
    AttentionKernels.causalAttentionSaving(b, t, d, q, k, v, out2, scores, weights, max, sum);
    Agreement.assertSame(out, out2);
    float[] expectedMax = new float[b * t];
    for (int r = 0; r < b * t; r++) {
      float m = Float.NEGATIVE_INFINITY;
      for (int c = 0; c < t; c++) {
        m = Math.max(m, scores[r * t + c]);
      }
      expectedMax[r] = m;
    }
    Agreement.assertSame(expectedMax, max);
    float[][] plain = {new float[b * t * d], new float[b * t * d], new float[b * t * d]};
    float[][] saved = {new float[b * t * d], new float[b * t * d], new float[b * t * d]};
    AttentionKernels.causalAttentionGrad(b, t, d, q, k, v, out, dout, plain[0], plain[1], plain[2]);
    AttentionKernels.causalAttentionGradSaved(b, t, d, q, k, v, out, scores, weights, max, sum, dout, saved[0], saved[1],
        saved[2]);
    for (int i = 0; i < 3; i++) {
      Agreement.assertClose(plain[i], saved[i], 1e-5, 1e-6);
    }
  }

  private static float[] run(int b, int t, int d, float[] q, float[] k, float[] v) {
    float[] out = new float[b * t * d];
    Attention.causalAttention(b, t, d, q, k, v, out);
    return out;
  }
}
