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
  /** erf: the polynomial in x*x below this, a polynomial in |x| - 2 above. */
  static final float ERF_SPLIT = 1f;
  /** erf rounds to +-1 in float from here on. */
  static final float ERF_ONE = 3.92f;

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
   * The error function, in float arithmetic: below 1, {@code x + x * P(x*x)} with P a degree-6
   * polynomial fitted to {@code erf(x)/x - 1}; from 1 to 3.92, {@code Q(|x| - 2)} with the sign of
   * x, Q a degree-16 polynomial fitted to erf itself on [-1, 1.92] ({@code |x| - 2} is exact there,
   * by Sterbenz's lemma, so the argument carries no rounding); +-1 from 3.92 on, where erf rounds
   * to 1 in float. Fitted by least squares on Chebyshev nodes in double ({@code
   * scripts/erf-fit.py}), the coefficients rounded to float. At most 1.15 ulp from the correctly
   * rounded result, measured over every float (see KMath's table). Only multiplies, adds and blends
   * of the two branches, no {@code exp}: it vectorises (the processor's {@code VectorMathCode}
   * writes it into SIMD kernels) and {@code kiln/math.cuh} computes the same bits.
   */
  static float erf(float x) {
    float a = Math.abs(x);
    if (a < ERF_SPLIT) {
      float z = x * x;
      float p = 7.878795440774411e-05f;
      p = Math.fma(p, z, -0.0008014488266780972f);
      p = Math.fma(p, z, 0.005188371054828167f);
      p = Math.fma(p, z, -0.0268535315990448f);
      p = Math.fma(p, z, 0.11283567547798157f);
      p = Math.fma(p, z, -0.376126229763031f);
      p = Math.fma(p, z, 0.12837916612625122f);
      return Math.fma(x, p, x);
    }
    if (!(a < ERF_ONE)) {
      return a != a ? x : Math.copySign(1f, x);
    }
    float t = a - 2f;
    float q = -8.423664432655187e-09f;
    q = Math.fma(q, t, -3.0504659775942855e-07f);
    q = Math.fma(q, t, 3.484974968159804e-06f);
    q = Math.fma(q, t, -1.217776480189059e-05f);
    q = Math.fma(q, t, 2.333201337023638e-06f);
    q = Math.fma(q, t, 9.93652138276957e-05f);
    q = Math.fma(q, t, -0.00025677779922261834f);
    q = Math.fma(q, t, -4.849606193602085e-05f);
    q = Math.fma(q, t, 0.0015861217398196459f);
    q = Math.fma(q, t, -0.0033786040730774403f);
    q = Math.fma(q, t, 0.00046122699859552085f);
    q = Math.fma(q, t, 0.013088763691484928f);
    q = Math.fma(q, t, -0.03444535285234451f);
    q = Math.fma(q, t, 0.04822302982211113f);
    q = Math.fma(q, t, -0.041333943605422974f);
    q = Math.fma(q, t, 0.020666982978582382f);
    q = Math.fma(q, t, 0.9953222870826721f);
    return Math.copySign(q, x);
  }

}
