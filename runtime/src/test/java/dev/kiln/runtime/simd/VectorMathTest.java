package dev.kiln.runtime.simd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.KMath;
import java.util.function.UnaryOperator;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;
import org.junit.jupiter.api.Test;

/**
 * The vector exp, tanh, sigmoid and erf give KMath's float bits on every lane: every 997th float (all of
 * them with {@code -Dkiln.ulp.exhaustive=true}), and the special values, at the preferred species
 * (512 bits with AVX-512) and at 128 bits.
 */
class VectorMathTest {
  private static final long STEP = Boolean.getBoolean("kiln.ulp.exhaustive") ? 1 : 997;

  private static final float[] SPECIALS = {
    Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 0f, -0f, Float.MIN_VALUE, -Float.MIN_VALUE,
    Float.MIN_NORMAL, Float.MAX_VALUE, -Float.MAX_VALUE, 88.72283935546875f, 88.72284f, -103.972084045410156f,
    -103.97209f, -87.33655f, -87.33654f, 0.625f, -0.625f, 0.95f, -0.95f, 0.94999999f, 3.92f, -3.92f, 3.9199998f, 0x1p-12f, -0x1p-12f, 9.1f, -9.1f, 9.0999994f, 1f, -1f,
    Float.intBitsToFloat(0x7fc00001), Float.intBitsToFloat(0xffc00000)
  };

  @Test
  void simdIsOnInThisRun() {
    // the runtime's surefire runs with --add-modules jdk.incubator.vector (runtime/pom.xml)
    assertTrue(Simd.ENABLED, Simd.describe());
  }

  @Test
  void expMatchesKMath() {
    check("exp", KMath::exp, VectorMath::exp);
  }

  @Test
  void tanhMatchesKMath() {
    check("tanh", KMath::tanh, VectorMath::tanh);
  }

  @Test
  void erfMatchesKMath() {
    check("erf", KMath::erf, VectorMath::erf);
  }

  @Test
  void sigmoidMatchesKMath() {
    check("sigmoid", KMath::sigmoid, VectorMath::sigmoid);
  }

  private static void check(String name, UnaryOperator<Float> scalar, UnaryOperator<FloatVector> vector) {
    for (VectorSpecies<Float> species : java.util.List.of(FloatVector.SPECIES_PREFERRED, FloatVector.SPECIES_128)) {
      int lanes = species.length();
      float[] in = new float[lanes];
      float[] out = new float[lanes];
      int filled = 0;
      for (long bits = 0; bits <= 0xffffffffL + SPECIALS.length; bits += bits > 0xffffffffL ? 1 : STEP) {
        in[filled++] = bits > 0xffffffffL ? SPECIALS[(int) (bits - 0x100000000L)] : Float.intBitsToFloat((int) bits);
        if (filled == lanes) {
          vector.apply(FloatVector.fromArray(species, in, 0)).intoArray(out, 0);
          for (int k = 0; k < lanes; k++) {
            float want = scalar.apply(in[k]);
            if (Float.floatToRawIntBits(want) != Float.floatToRawIntBits(out[k])
                && !(Float.isNaN(want) && Float.isNaN(out[k]))) {
              assertEquals(want, out[k], name + "(" + in[k] + ") [" + Integer.toHexString(Float.floatToRawIntBits(in[k]))
                  + "] at " + species);
              assertEquals(Float.floatToRawIntBits(want), Float.floatToRawIntBits(out[k]), name + "(" + in[k] + ") bits");
            }
          }
          filled = 0;
        }
      }
    }
  }
}
