package dev.kiln;

/**
 * The {@code float} exponential, hyperbolic tangent and logistic function, computed in {@code
 * float}: Cody-Waite range reduction and the minimax polynomials of Cephes' single-precision
 * library (S. L. Moshier, {@code expf.c}, {@code tanhf.c}), with no call into {@link Math} or
 * {@link StrictMath} (on Java 17 {@code Math.tanh} is a native call per element) and no
 * {@code double} arithmetic. Every operation is a plain IEEE {@code float} multiply, add, divide or
 * bit move, in the order written, so {@code kiln/math.cuh} computes the same bits on CUDA (with
 * {@code __fmul_rn}/{@code __fadd_rn}, which forbid fused multiply-adds).
 *
 * <p>Errors against the correctly rounded result, measured over every float: {@link #exp} at most 1
 * ulp, {@link #tanh} at most 1.33 ulp, {@link #sigmoid} at most 2.41 ulp (see KMath's table and
 * {@code FloatMathTest}). Special values follow {@link Math}: NaN in, NaN out; {@code exp} is +Inf
 * above {@value #EXP_MAX} and +0 below {@value #EXP_MIN}, subnormal in between where the result
 * is; {@code tanh(+-0) = +-0}, {@code tanh(+-Inf) = +-1}.
 */
final class FloatMath {
  private FloatMath() {}

  private static final float LOG2E = 1.44269504088896341f;
  /** ln 2 split so that {@code n * LN2_HI} is exact for every reduction step {@code n}. */
  private static final float LN2_HI = 0.693359375f;
  private static final float LN2_LO = -2.12194440e-4f;
  /** 1.5 * 2^23: adding and subtracting it rounds a float of magnitude below 2^22 to an integer. */
  private static final float ROUND = 12582912f;
  /** The largest x whose exponential is finite in float. */
  static final float EXP_MAX = 88.72283935546875f;
  /** Below this, the exponential rounds to zero in float. */
  static final float EXP_MIN = -103.972084045410156f;

  static float exp(float x) {
    if (!(x <= EXP_MAX)) {
      return x > EXP_MAX ? Float.POSITIVE_INFINITY : x; // NaN stays NaN
    }
    if (x < EXP_MIN) {
      return 0f;
    }
    float t = x * LOG2E + ROUND;
    float kf = t - ROUND; // n = round(x / ln 2)
    int n = (int) kf;
    float r = x - kf * LN2_HI; // |r| <= ln2 / 2
    r = r - kf * LN2_LO;
    float p = 1.9875691500E-4f;
    p = p * r + 1.3981999507E-3f;
    p = p * r + 8.3334519073E-3f;
    p = p * r + 4.1665795894E-2f;
    p = p * r + 1.6666665459E-1f;
    p = p * r + 5.0000001201E-1f;
    p = p * (r * r) + r + 1f;
    // 2^n in two factors, each a normal float for every n in [-150, 128]: exact unless the
    // result is subnormal, where the second product rounds once
    int n1 = n >> 1;
    return p * Float.intBitsToFloat((n1 + 127) << 23) * Float.intBitsToFloat((n - n1 + 127) << 23);
  }

  static float tanh(float x) {
    float a = Math.abs(x);
    if (a < 0.625f) {
      if (a < 0x1p-12f) {
        return x; // tanh x = x - x^3/3 rounds to x here; keeps -0 and subnormals exact
      }
      float z = x * x;
      float p = -5.70498872745E-3f;
      p = p * z + 2.06390887954E-2f;
      p = p * z - 5.37397155531E-2f;
      p = p * z + 1.33314422036E-1f;
      p = p * z - 3.33332819422E-1f;
      return p * z * x + x;
    }
    if (!(a < 9.1f)) { // tanh rounds to +-1 in float from 9.01 on
      return a != a ? x : Math.copySign(1f, x);
    }
    float s = exp(2f * a);
    return Math.copySign(1f - 2f / (s + 1f), x);
  }

  /** {@code 1 / (1 + exp(-x))}, as {@code exp(x) / (1 + exp(x))} for negative x (no overflow, subnormal tails). */
  static float sigmoid(float x) {
    float e = exp(-Math.abs(x));
    float d = 1f + e;
    return x >= 0f ? 1f / d : e / d;
  }

  /**
   * The error function of a float, in double arithmetic without loops: below 0.5 its Maclaurin
   * series to the x^15 term, above it one minus the rational Chebyshev fit of erfc from Numerical
   * Recipes (fractional error below 1.2e-7), and +-1 from 3.92 on, where erf rounds to 1 in float.
   * At most 1 ulp from the correctly rounded result (measured; see KMath's table).
   */
  static float erf(float xf) {
    double x = xf;
    double a = Math.abs(x);
    if (a < 0.5) {
      double z = x * x;
      double p = z * (1.0 / 75600) - 1.0 / 9360;
      p = p * z + 1.0 / 1320;
      p = p * z - 1.0 / 216;
      p = p * z + 1.0 / 42;
      p = p * z - 1.0 / 10;
      p = p * z + 1.0 / 3;
      p = 1 - z * p;
      return (float) (1.1283791670955126 * x * p);
    }
    if (!(a < 3.92)) {
      return a != a ? xf : Math.copySign(1f, xf);
    }
    double t = 1 / (1 + 0.5 * a);
    double q = 0.17087277;
    q = q * t - 0.82215223;
    q = q * t + 1.48851587;
    q = q * t - 1.13520398;
    q = q * t + 0.27886807;
    q = q * t - 0.18628806;
    q = q * t + 0.09678418;
    q = q * t + 0.37409196;
    q = q * t + 1.00002368;
    double erfc = t * Math.exp(-a * a - 1.26551223 + t * q);
    return (float) Math.copySign(1 - erfc, x);
  }
}
