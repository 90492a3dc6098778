package dev.kiln.tests;

import java.util.Arrays;

/**
 * Inputs for the tests that hold a float function to {@code KMath}'s bits: every {@code step}-th
 * float bit pattern (so both signs, every exponent, NaNs and infinities), then the values where
 * FloatMath's algorithms change formula or saturate, and the IEEE specials.
 */
public final class FloatSamples {
  private FloatSamples() {}

  /** The specials and every boundary of FloatMath's exp, tanh, sigmoid and erf. */
  public static final float[] SPECIALS = {
    Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 0f, -0f, Float.MIN_VALUE, -Float.MIN_VALUE,
    Float.MIN_NORMAL, Float.MAX_VALUE, -Float.MAX_VALUE, 88.72283935546875f, 88.72284f, -103.972084045410156f,
    -103.97209f, -87.33655f, -87.33654f, 0.625f, -0.625f, 0.95f, -0.95f, 0.94999999f, 3.92f, -3.92f, 3.9199998f, 3.9192059f, 3.9965382f, -3.9965382f, 2.4e4f, -2.4e4f,
    0x1p-12f, -0x1p-12f, 9.1f, -9.1f, 9.0999994f, 9.02f, -9.02f, 9.019999f, 9.0109f, 7.34793f, -7.34793f, 1f, -1f, Float.intBitsToFloat(0x7fc00001),
    Float.intBitsToFloat(0xffc00000)
  };

  /**
   * Every {@code step}-th float bit pattern from 0, then {@link #SPECIALS}. For a step below 16,
   * whose samples would not fit one array, walk the bit patterns with {@link #range} instead.
   */
  public static float[] everyNth(long step) {
    if (step < 16) {
      throw new IllegalArgumentException("every " + step + "th float is too many for one array; use range()");
    }
    int sampled = (int) (0x100000000L / step) + 1;
    float[] in = new float[sampled + SPECIALS.length];
    int n = 0;
    for (long bits = 0; bits <= 0xffffffffL; bits += step) {
      in[n++] = Float.intBitsToFloat((int) bits);
    }
    System.arraycopy(SPECIALS, 0, in, n, SPECIALS.length);
    return Arrays.copyOf(in, n + SPECIALS.length);
  }

  /** The {@code count} float bit patterns from {@code start} on (as unsigned ints), in order. */
  public static float[] range(long start, int count) {
    float[] in = new float[count];
    for (int k = 0; k < count; k++) {
      in[k] = Float.intBitsToFloat((int) (start + k));
    }
    return in;
  }

  /**
   * The first input whose two results differ in their bits (any NaN equals any NaN), as a message,
   * or null when all agree.
   */
  public static String firstDifference(String function, float[] inputs, float[] expected, float[] actual) {
    for (int k = 0; k < inputs.length; k++) {
      int want = Float.floatToRawIntBits(expected[k]);
      int got = Float.floatToRawIntBits(actual[k]);
      if (want != got && !(Float.isNaN(expected[k]) && Float.isNaN(actual[k]))) {
        return function + "(" + inputs[k] + ") [0x" + Integer.toHexString(Float.floatToRawIntBits(inputs[k]))
            + "]: expected " + expected[k] + " [0x" + Integer.toHexString(want) + "], got " + actual[k] + " [0x"
            + Integer.toHexString(got) + "]";
      }
    }
    return null;
  }
}
