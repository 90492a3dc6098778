package dev.kiln.tests.simd;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.KMath;
import dev.kiln.runtime.simd.Simd;
import dev.kiln.tests.FloatSamples;
import java.util.function.BiConsumer;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The vector exp, tanh, sigmoid and erf that the processor writes into SIMD kernels
 * ({@code VectorMathCode}) give KMath's float bits on every lane: every 997th float (all of them
 * with {@code -Dkiln.ulp.exhaustive=true}) and the special values, each run through the SIMD
 * kernel of a one-function operator ({@link MathOps}), whole vectors and the scalar tail alike.
 */
class VectorMathTest {
  /** With {@code -Dkiln.ulp.exhaustive=true}: every float, in blocks of {@link #BLOCK}, then the specials. */
  private static final boolean EXHAUSTIVE = Boolean.getBoolean("kiln.ulp.exhaustive");

  private static final int BLOCK = 1 << 24;

  /** Every 997th float bit pattern, then the specials. */
  private static final float[] SAMPLED = EXHAUSTIVE ? new float[0] : FloatSamples.everyNth(997);

  @Test
  void theSimdKernelsRunInThisCheck() {
    // the SIMD kernels are called directly below; the launcher picks them only when Simd.ENABLED
    assertTrue(Simd.ENABLED || "false".equals(System.getProperty(Simd.PROPERTY)), Simd.describe());
  }

  @Test
  void expMatchesKMath() {
    check("exp", KMath::exp, (x, y) -> MathOpsSimdKernels.exp(0, x.length, x.length, x, y));
  }

  @Test
  void tanhMatchesKMath() {
    check("tanh", KMath::tanh, (x, y) -> MathOpsSimdKernels.tanh(0, x.length, x.length, x, y));
  }

  @Test
  void sigmoidMatchesKMath() {
    check("sigmoid", KMath::sigmoid, (x, y) -> MathOpsSimdKernels.sigmoid(0, x.length, x.length, x, y));
  }

  @Test
  void erfMatchesKMath() {
    check("erf", KMath::erf, (x, y) -> MathOpsSimdKernels.erf(0, x.length, x.length, x, y));
  }

  /**
   * exp's one-factor path, taken when every lane of a vector has |x| <= 87.3: the floats just below
   * 87.3 in magnitude, both signs, whole vectors of them (the sampled inputs above mix magnitudes
   * within a vector less than these do), and a vector of the smallest and largest.
   */
  @Test
  void expFastPathMatchesKMathAtItsEdges() {
    int top = Float.floatToRawIntBits(87.3f);
    float[] edges = new float[4 * 4096 + 16];
    int n = 0;
    for (int k = 0; k < 4096; k++) {
      edges[n++] = Float.intBitsToFloat(top - k);
      edges[n++] = -Float.intBitsToFloat(top - k);
      edges[n++] = Float.intBitsToFloat(top - 64 * k);
      edges[n++] = -Float.intBitsToFloat(top - 64 * k);
    }
    for (int k = 0; k < 16; k++) {
      edges[n++] = k % 2 == 0 ? -87.3f : 87.3f;
    }
    check("exp", KMath::exp, (x, y) -> MathOpsSimdKernels.exp(0, x.length, x.length, x, y), edges);
    check("sigmoid", KMath::sigmoid, (x, y) -> MathOpsSimdKernels.sigmoid(0, x.length, x.length, x, y), edges);
  }

  private static void check(String name, UnaryOperator<Float> scalar, BiConsumer<float[], float[]> simd) {
    if (!EXHAUSTIVE) {
      check(name, scalar, simd, SAMPLED);
      return;
    }
    for (long start = 0; start <= 0xffffffffL; start += BLOCK) {
      check(name, scalar, simd, FloatSamples.range(start, BLOCK));
    }
    check(name, scalar, simd, FloatSamples.SPECIALS);
  }

  private static void check(String name, UnaryOperator<Float> scalar, BiConsumer<float[], float[]> simd, float[] inputs) {
    float[] out = new float[inputs.length];
    simd.accept(inputs, out);
    float[] want = new float[inputs.length];
    for (int k = 0; k < inputs.length; k++) {
      want[k] = scalar.apply(inputs[k]);
    }
    assertNull(FloatSamples.firstDifference(name, inputs, want, out));
  }
}
