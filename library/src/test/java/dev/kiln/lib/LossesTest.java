package dev.kiln.lib;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.testing.Agreement;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link Losses}: each operator's CPU kernel against its source bit for bit; the fused loss's
 * hand-written backward pass against the gradient computed in double and against central
 * differences of the source, and as one kernel in the gradient listing.
 */
class LossesTest {
  interface RowOp {
    void run(int b, int c, float[] x, float[] out);
  }

  @ParameterizedTest(name = "B={0} C={1}")
  @CsvSource({"1, 1", "3, 7", "64, 1000", "300, 33"})
  void everyOperatorIsItsSourceBitForBit(int b, int c) {
    float[] x = Data.floats(21, b * c, -6f, 6f);
    float[] target = oneHot(b, c, 22);
    rowOpAgrees(b, c, x, Losses::softmax, LossesKernels::softmax);
    rowOpAgrees(b, c, x, Losses::logSoftmax, LossesKernels::logSoftmax);
    float[] expected = Data.filled(b, Float.NaN);
    float[] actual = Data.filled(b, Float.NaN);
    Losses.softmaxCrossEntropy(b, c, x, target, expected);
    LossesKernels.softmaxCrossEntropy(b, c, x, target, actual);
    Agreement.assertSame(expected, actual);
    float[] logProbs = new float[b * c];
    Losses.logSoftmax(b, c, x, logProbs);
    Losses.nll(b, c, logProbs, target, expected);
    LossesKernels.nll(b, c, logProbs, target, actual);
    Agreement.assertSame(expected, actual);
    Losses.logSoftmaxNll(b, c, x, target, expected);
    LossesKernels.logSoftmaxNll(b, c, x, target, actual);
    Agreement.assertSame(expected, actual);
  }

  /** The training forms: the forward pass also stores each row's maximum and sum; the saved backward pass gives the plain one's bits. */
  @ParameterizedTest(name = "B={0} C={1}")
  @CsvSource({"1, 1", "3, 7", "64, 1000"})
  void theSoftmaxesSavedBackwardPassesAreThePlainOnes(int b, int c) {
    float[] x = Data.floats(31, b * c, -6f, 6f);
    float[] dout = Data.floats(32, b * c, -1f, 1f);
    float[] out = new float[b * c];
    float[] out2 = new float[b * c];
    float[] max = new float[b];
    float[] sum = new float[b];
    float[] dx = new float[b * c];
    float[] dx2 = new float[b * c];
    LossesKernels.softmax(b, c, x, out);
    LossesKernels.softmaxSaving(b, c, x, out2, max, sum);
    Agreement.assertSame(out, out2);
    LossesKernels.softmaxGrad(b, c, x, out, dout, dx);
    LossesKernels.softmaxGradSaved(b, c, x, out, max, sum, dout, dx2);
    Agreement.assertSame(dx, dx2);
    LossesKernels.logSoftmax(b, c, x, out);
    LossesKernels.logSoftmaxSaving(b, c, x, out2, max, sum);
    Agreement.assertSame(out, out2);
    LossesKernels.logSoftmaxGrad(b, c, x, out, dout, dx);
    LossesKernels.logSoftmaxGradSaved(b, c, x, out, max, sum, dout, dx2);
    Agreement.assertSame(dx, dx2);
  }

  @ParameterizedTest(name = "B={0} C={1}")
  @CsvSource({"2, 5", "17, 64"})
  void logSoftmaxThenNllHasADerivedGradientThatAgreesWithFiniteDifferences(int b, int c) {
    float[] x = Data.floats(28, b * c, -3f, 3f);
    float[] target = Data.floats(29, b * c, 0f, 1f);
    float[] dloss = Data.floats(30, b, -1f, 1f);
    float[] loss = new float[b];
    Losses.logSoftmaxNll(b, c, x, target, loss);
    float[] dlogits = new float[b * c];
    float[] dtarget = new float[b * c];
    LossesKernels.logSoftmaxNllGrad(b, c, x, target, loss, dloss, dlogits, dtarget);
    float[] fused = new float[b * c];
    float[] unused = new float[b * c];
    LossesKernels.softmaxCrossEntropyGrad(b, c, x, target, loss, dloss, fused, unused);
    // the same loss as softmaxCrossEntropy, so the same gradient up to rounding
    Agreement.assertClose(fused, dlogits, 1e-4, 1e-4);
    FiniteDifferences.checkDirectional(dloss, dlogits, x, xs -> lossOf(Losses::logSoftmaxNll, b, c, xs, target));
    FiniteDifferences.checkDirectional(dloss, dtarget, target, ts -> lossOf(Losses::logSoftmaxNll, b, c, x, ts));
  }

  private static void rowOpAgrees(int b, int c, float[] x, RowOp source, RowOp kernel) {
    float[] expected = Data.filled(b * c, Float.NaN);
    float[] actual = Data.filled(b * c, Float.NaN);
    source.run(b, c, x, expected);
    kernel.run(b, c, x, actual);
    Agreement.assertSame(expected, actual);
  }

  @Test
  void withAOneHotTargetAndUnitUpstreamTheBackwardPassIsSoftmaxMinusTarget() {
    int b = 40;
    int c = 129;
    float[] x = Data.floats(23, b * c, -5f, 5f);
    float[] target = oneHot(b, c, 24);
    float[] loss = new float[b];
    LossesKernels.softmaxCrossEntropy(b, c, x, target, loss);
    float[] dlogits = new float[b * c];
    float[] dtarget = new float[b * c];
    LossesKernels.softmaxCrossEntropyGrad(b, c, x, target, loss, Data.filled(b, 1f), dlogits, dtarget);
    float[] p = new float[b * c];
    LossesKernels.softmax(b, c, x, p);
    for (int i = 0; i < b * c; i++) {
      assertEquals(p[i] - target[i], dlogits[i], "p - y at " + i);
    }
  }

  @ParameterizedTest(name = "B={0} C={1}")
  @CsvSource({"2, 5", "17, 64"})
  void theBackwardPassIsTheGradientInDoubleAndAgreesWithFiniteDifferences(int b, int c) {
    float[] x = Data.floats(25, b * c, -3f, 3f);
    float[] target = Data.floats(26, b * c, 0f, 1f); // a soft target whose rows do not sum to 1
    float[] dloss = Data.floats(27, b, -1f, 1f);
    float[] loss = new float[b];
    Losses.softmaxCrossEntropy(b, c, x, target, loss);
    float[] dlogits = new float[b * c];
    float[] dtarget = new float[b * c];
    LossesKernels.softmaxCrossEntropyGrad(b, c, x, target, loss, dloss, dlogits, dtarget);
    for (int r = 0; r < b; r++) {
      double m = Double.NEGATIVE_INFINITY;
      for (int k = 0; k < c; k++) {
        m = Math.max(m, x[r * c + k]);
      }
      double s = 0;
      double total = 0;
      for (int k = 0; k < c; k++) {
        s += Math.exp(x[r * c + k] - m);
        total += target[r * c + k];
      }
      double lse = m + Math.log(s);
      for (int k = 0; k < c; k++) {
        int i = r * c + k;
        double wantLogits = dloss[r] * (total * Math.exp(x[i] - m) / s - target[i]);
        double wantTarget = dloss[r] * (lse - x[i]);
        assertEquals(wantLogits, dlogits[i], 1e-5 * (Math.abs(dloss[r]) * total + 1e-3), "dlogits at " + i);
        assertEquals(wantTarget, dtarget[i], 1e-5 * (Math.abs(wantTarget) + 1e-3), "dtarget at " + i);
      }
    }
    // against central differences of the float source along a random direction, for each input
    // (step 1e-2: a row's loss is about 100, whose float rounding, 1e-5, is 1% of what a step of
    // 1e-3 moves the directional sum of 17 rows)
    FiniteDifferences.checkDirectional(dloss, dlogits, x, xs -> lossOf(Losses::softmaxCrossEntropy, b, c, xs, target), 1e-2f);
    FiniteDifferences.checkDirectional(dloss, dtarget, target, ts -> lossOf(Losses::softmaxCrossEntropy, b, c, x, ts), 1e-2f);
  }

  /** A loss of rows of logits against targets: one of {@link Losses}' plain-Java operators. */
  interface LossOp {
    void run(int b, int c, float[] logits, float[] target, float[] loss);
  }

  private static float[] lossOf(LossOp op, int b, int c, float[] logits, float[] target) {
    float[] loss = new float[b];
    op.run(b, c, logits, target, loss);
    return loss;
  }

  @Test
  void forwardAndBackwardAreOneKernelEach() throws IOException {
    String listing = resource("META-INF/kiln/dev/kiln/lib/Losses.ir.txt");
    assertTrue(listing.contains("operator softmaxCrossEntropy grid"), listing);
    String gradients = resource("META-INF/kiln/dev/kiln/lib/Losses.gradients.ir.txt");
    // one grid kernel (the hand-written backward pass), not a composite of adjoint kernels
    assertTrue(gradients.contains("\noperator softmaxCrossEntropyGrad grid\n"), gradients);
    assertTrue(!gradients.contains("composite softmaxCrossEntropyGrad("), gradients);
    // while the derived gradient of log-softmax, the same rows without the fusion by hand, is not
    assertTrue(gradients.contains("composite logSoftmaxGrad("), gradients);
    // log-softmax then NLL, from primitives: the merger makes each pass one kernel
    assertTrue(composite(listing, "logSoftmaxNll").contains("\n  fused into 1 kernel;"), listing);
    assertTrue(composite(gradients, "logSoftmaxNllGrad").contains("\n  fused into 1 kernel;"), gradients);
  }

  /** The listing of composite {@code name}, up to the next composite. */
  private static String composite(String listing, String name) {
    int at = listing.indexOf("composite " + name + "(");
    assertTrue(at >= 0, "no composite " + name);
    int end = listing.indexOf("\ncomposite ", at + 1);
    return end < 0 ? listing.substring(at) : listing.substring(at, end);
  }

  private static String resource(String path) throws IOException {
    try (InputStream in = LossesTest.class.getClassLoader().getResourceAsStream(path)) {
      if (in == null) {
        throw new IOException("no " + path + " on the class path");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** Each row's one-hot target: 1 at a pseudo-random class. */
  private static float[] oneHot(int b, int c, long seed) {
    float[] t = new float[b * c];
    java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
    for (int r = 0; r < b; r++) {
      t[r * c + random.nextInt(c)] = 1f;
    }
    return t;
  }
}
