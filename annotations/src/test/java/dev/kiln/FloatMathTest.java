package dev.kiln;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The float-computed {@link KMath} functions against {@link Math} in double (correctly rounded to
 * float except in astronomically rare cases): the stated error bounds on every 61st float (70
 * million per function, every sign and binade) and on exact special values. {@code
 * -Dkiln.ulp.exhaustive=true} checks every float (a few minutes).
 */
class FloatMathTest {
  private static final int STEP = Boolean.getBoolean("kiln.ulp.exhaustive") ? 1 : 61;

  /** The error of {@code got} in units in the last place of the correctly rounded {@code ref}. */
  static double ulps(float got, double ref) {
    if (Double.isNaN(ref)) {
      return Float.isNaN(got) ? 0 : Double.POSITIVE_INFINITY;
    }
    float rounded = (float) ref;
    if (got == rounded || got == ref) {
      return 0;
    }
    if (Float.isInfinite(got) || Float.isInfinite(rounded)) {
      return Double.POSITIVE_INFINITY;
    }
    // the smaller ulp at a binade boundary, so an error just below a power of two is not halved
    double ulp = Math.min(Math.ulp(rounded), Math.ulp(Math.nextDown(Math.abs(rounded))));
    return Math.abs(got - ref) / Math.max(ulp, Float.MIN_VALUE);
  }

  private interface FloatFn {
    float apply(float x);
  }

  private static void within(String name, FloatFn f, DoubleUnaryOperator reference, double bound) {
    double worst = 0;
    float at = 0;
    for (long bits = 0; bits <= 0xFFFF_FFFFL; bits += STEP) {
      float x = Float.intBitsToFloat((int) bits);
      double e = ulps(f.apply(x), reference.applyAsDouble(x));
      if (e > worst) {
        worst = e;
        at = x;
      }
    }
    assertTrue(worst <= bound, name + ": " + worst + " ulp at " + at + " exceeds the stated " + bound);
  }

  @Test
  void expIsWithinOneUlp() {
    within("exp", KMath::exp, Math::exp, 1.0);
  }

  @Test
  void tanhIsWithinItsStatedUlps() {
    within("tanh", KMath::tanh, Math::tanh, FloatMath.TANH_ULPS);
  }

  @Test
  void sigmoidIsWithinTwoPointFourOneUlp() {
    within("sigmoid", KMath::sigmoid, x -> 1.0 / (1.0 + Math.exp(-x)), 2.41);
  }

  @Test
  void erfIsWithinItsStatedUlps() {
    within("erf", KMath::erf, KMath::erf, FloatMath.ERF_ULPS);
  }

  @Test
  void erfNeverExceedsOneInMagnitude() {
    float worst = 0;
    for (long bits = 0; bits <= 0xFFFF_FFFFL; bits += STEP) {
      float e = Math.abs(KMath.erf(Float.intBitsToFloat((int) bits)));
      worst = e > worst ? e : worst;
    }
    assertEquals(1f, worst, 0f);
    for (float x = 3.9f; x <= 4.1f; x = Math.nextUp(x)) { // where the quotient crosses 1: every float
      assertTrue(Math.abs(KMath.erf(x)) <= 1f && Math.abs(KMath.erf(-x)) <= 1f, "erf(+-" + x + ")");
    }
  }

  @Test
  void specialValuesFollowMath() {
    assertTrue(Float.isNaN(KMath.exp(Float.NaN)));
    assertTrue(Float.isNaN(KMath.tanh(Float.NaN)));
    assertTrue(Float.isNaN(KMath.sigmoid(Float.NaN)));
    assertEquals(Float.POSITIVE_INFINITY, KMath.exp(Float.POSITIVE_INFINITY));
    assertEquals(0f, KMath.exp(Float.NEGATIVE_INFINITY));
    assertEquals(Float.POSITIVE_INFINITY, KMath.exp(Math.nextUp(FloatMath.EXP_MAX)));
    assertEquals((float) Math.exp(FloatMath.EXP_MAX), KMath.exp(FloatMath.EXP_MAX));
    assertEquals(Float.MIN_VALUE, KMath.exp(-103.27893f)); // the least subnormal
    assertEquals(0f, KMath.exp(Math.nextDown(FloatMath.EXP_MIN)));
    assertEquals(1f, KMath.exp(0f));
    assertEquals(1f, KMath.exp(-0f));
    assertEquals(Float.floatToRawIntBits(-0f), Float.floatToRawIntBits(KMath.tanh(-0f)));
    assertEquals(Float.floatToRawIntBits(0f), Float.floatToRawIntBits(KMath.tanh(0f)));
    assertEquals(1f, KMath.tanh(Float.POSITIVE_INFINITY));
    assertEquals(-1f, KMath.tanh(Float.NEGATIVE_INFINITY));
    assertEquals(Float.MIN_VALUE, KMath.tanh(Float.MIN_VALUE)); // subnormals: tanh(x) = x
    assertEquals(0.5f, KMath.sigmoid(0f));
    assertTrue(Float.isNaN(KMath.erf(Float.NaN)));
    assertEquals(1f, KMath.erf(Float.POSITIVE_INFINITY));
    assertEquals(-1f, KMath.erf(Float.NEGATIVE_INFINITY));
    assertEquals(1f, KMath.erf(Float.MAX_VALUE)); // z, P and Q overflow: the NaN quotient clamps to 1
    assertEquals(1f, KMath.erf(4f));
    assertEquals(Float.MIN_VALUE, KMath.erf(Float.MIN_VALUE)); // 2/sqrt(pi) times the least subnormal
    assertEquals(-1f, KMath.erf(-4f));
    assertEquals(Float.floatToRawIntBits(-0f), Float.floatToRawIntBits(KMath.erf(-0f)));
    assertEquals(1f, KMath.sigmoid(Float.POSITIVE_INFINITY));
    assertEquals(0f, KMath.sigmoid(Float.NEGATIVE_INFINITY));
    assertTrue(KMath.sigmoid(-100f) > 0f, "a subnormal, not zero, like 1/(1+e^100)");
  }

  @Test
  void doubleOverloadsStayMath() {
    for (double x : new double[] {-3.5, -0.1, 0, 0.7, 20}) {
      assertEquals(Math.exp(x), KMath.exp(x));
      assertEquals(Math.tanh(x), KMath.tanh(x));
    }
  }
}
