package dev.kiln;

/**
 * The {@code float} exponential, hyperbolic tangent, logistic and error functions, computed in {@code
 * float}: Cody-Waite range reduction and the minimax polynomials of Cephes' single-precision
 * library (S. L. Moshier, {@code expf.c}, {@code tanhf.c}), with no call into {@link Math} or
 * {@link StrictMath} except {@link Math#fma} (on Java 17 {@code Math.tanh} is a native call per
 * element) and no {@code double} arithmetic. Every operation is an IEEE {@code float} multiply, add,
 * divide, fused multiply-add (each Horner step and the range reduction: one rounding instead of two,
 * half the instructions; the JIT compiles {@code Math.fma} to one FMA instruction on every x86 since
 * 2013 and every ARMv8) or bit move, in the order written, so {@code kiln/math.cuh} computes the same
 * bits on CUDA ({@code __fmaf_rn} where this calls {@code Math.fma}, and {@code __fmul_rn}/{@code
 * __fadd_rn}, which forbid fused multiply-adds, elsewhere) and the SIMD kernels with {@code
 * FloatVector.fma}.
 *
 * <p>Errors against the correctly rounded result, measured over every float: {@link #exp} at most 1
 * ulp (0.978), {@link #tanh} at most 1.34 ulp (1.3303), {@link #sigmoid} at most 2.41 ulp (2.402) (see KMath's table and
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
  /** erf: the polynomial in x*x below this, one minus exp(-x*x) times a polynomial above. */
  static final float ERF_SPLIT = 0.95f;
  /** erf rounds to +-1 in float from here on. */
  static final float ERF_ONE = 3.92f;
  /** erf's second interval [0.95, 3.92] mapped onto [-1, 1]: (|x| - ERF_MID) * ERF_SCALE. */
  static final float ERF_MID = 2.435f;
  static final float ERF_SCALE = 0.6734006734006734f;

  static float exp(float x) {
    if (!(x <= EXP_MAX)) {
      return x > EXP_MAX ? Float.POSITIVE_INFINITY : x; // NaN stays NaN
    }
    if (x < EXP_MIN) {
      return 0f;
    }
    float t = Math.fma(x, LOG2E, ROUND);
    float kf = t - ROUND; // n = round(x / ln 2)
    int n = (int) kf;
    float r = Math.fma(kf, -LN2_HI, x); // |r| <= ln2 / 2
    r = Math.fma(kf, -LN2_LO, r);
    float p = 1.9875691500E-4f;
    p = Math.fma(p, r, 1.3981999507E-3f);
    p = Math.fma(p, r, 8.3334519073E-3f);
    p = Math.fma(p, r, 4.1665795894E-2f);
    p = Math.fma(p, r, 1.6666665459E-1f);
    p = Math.fma(p, r, 5.0000001201E-1f);
    p = p * (r * r) + r + 1f; // not fused: 1.008 ulp at worst fused, 0.975 like this
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
      p = Math.fma(p, z, 2.06390887954E-2f);
      p = Math.fma(p, z, -5.37397155531E-2f);
      p = Math.fma(p, z, 1.33314422036E-1f);
      p = Math.fma(p, z, -3.33332819422E-1f);
      return Math.fma(p * z, x, x);
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
   * The error function, in float arithmetic: below 0.95, {@code x + x * P(x*x)} with P a degree-7
   * polynomial fitted to {@code erf(x)/x - 1}; from 0.95 to 3.92, {@code 1 - exp(-x*x) * Q(t)} with
   * {@code t = (|x| - 2.435) / 1.485} and Q a degree-13 polynomial fitted to the scaled
   * complementary error function {@code erfcx}; +-1 from 3.92 on, where erf rounds to 1 in float.
   * Fitted by least squares in double ({@code scripts/erf-fit.py}), the coefficients rounded to float. At
   * most 1.07 ulp (1.061) from the correctly rounded result, measured over every float (see KMath's
   * table). Only multiplies, adds, {@link #exp} and blends of the two branches: it vectorises
   * (the processor's {@code VectorMathCode} writes it into SIMD kernels) and {@code kiln/math.cuh} computes the same bits.
   */
  static float erf(float x) {
    float a = Math.abs(x);
    if (a < ERF_SPLIT) {
      float z = x * x;
      float p = -1.0081633263325784e-05f;
      p = Math.fma(p, z, 0.0001139133091783151f);
      p = Math.fma(p, z, -0.0008498809183947742f);
      p = Math.fma(p, z, 0.005221875384449959f);
      p = Math.fma(p, z, -0.026865672320127487f);
      p = Math.fma(p, z, 0.11283785849809647f);
      p = Math.fma(p, z, -0.37612637877464294f);
      p = Math.fma(p, z, 0.12837916612625122f);
      return Math.fma(x, p, x);
    }
    if (!(a < ERF_ONE)) {
      return a != a ? x : Math.copySign(1f, x);
    }
    float t = (a - ERF_MID) * ERF_SCALE;
    float q = -5.421784862846835e-06f;
    q = Math.fma(q, t, 1.4786498468311038e-05f);
    q = Math.fma(q, t, -2.2510881535708904e-05f);
    q = Math.fma(q, t, 6.0221227613510564e-05f);
    q = Math.fma(q, t, -0.00017753956490196288f);
    q = Math.fma(q, t, 0.0004461287462618202f);
    q = Math.fma(q, t, -0.0010795284761115909f);
    q = Math.fma(q, t, 0.0025698107201606035f);
    q = Math.fma(q, t, -0.00593176344409585f);
    q = Math.fma(q, t, 0.013224838301539421f);
    q = Math.fma(q, t, -0.028409140184521675f);
    q = Math.fma(q, t, 0.05857718735933304f);
    q = Math.fma(q, t, -0.11537482589483261f);
    q = Math.fma(q, t, 0.21574655175209045f);
    return Math.copySign(Math.fma(-exp(-(x * x)), q, 1f), x);
  }
}
