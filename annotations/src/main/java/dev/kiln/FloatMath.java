package dev.kiln;

/**
 * The {@code float} exponential, hyperbolic tangent, logistic and error functions, computed in {@code
 * float}: for exp, Cody-Waite range reduction and the minimax polynomial of Cephes' single-precision
 * library (S. L. Moshier, {@code expf.c}); for tanh and erf, rational functions fitted here ({@code
 * scripts/tanh-fit.py}, {@code scripts/erf-fit.py}); with no call into {@link Math} or {@link
 * StrictMath} except {@link Math#fma} (on Java 17 {@code Math.tanh} is a native call per
 * element) and no {@code double} arithmetic. Every operation is an IEEE {@code float} multiply, add,
 * divide, fused multiply-add (each Horner step and the range reduction: one rounding instead of two,
 * half the instructions; the JIT compiles {@code Math.fma} to one FMA instruction on every x86 since
 * 2013 and every ARMv8) or bit move, in the order written, so {@code kiln/math.cuh} computes the same
 * bits on CUDA ({@code __fmaf_rn} where this calls {@code Math.fma}, and {@code __fmul_rn}/{@code
 * __fadd_rn}, which forbid fused multiply-adds, elsewhere) and the SIMD kernels with {@code
 * FloatVector.fma}.
 *
 * <p>Errors against the correctly rounded result, measured over every float: {@link #exp} at most 1
 * ulp (0.978), {@link #tanh} at most 4.92 ulp (4.913), {@link #sigmoid} at most 2.41 ulp (2.402),
 * {@link #erf} at most 6 ulp (5.94) (see KMath's table and {@code FloatMathTest}). Special values follow {@link Math}: NaN in, NaN out; {@code exp} is +Inf
 * above {@value #EXP_MAX} and +0 below {@value #EXP_MIN}, subnormal in between where the result
 * is; {@code tanh(+-0) = +-0}, {@code tanh(+-Inf) = +-1}, and the same for {@code erf}.
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
  /** erf's bound in ulps over every float, as FloatMathTest measures it. */
  static final double ERF_ULPS = 6.0;
  /** erf's numerator P(z) = P0 + P1 z + ... + P5 z^5. */
  static final float ERF_P0 = 1.1283791065216064f;
  static final float ERF_P1 = 0.19040514528751373f;
  static final float ERF_P2 = 0.052748505026102066f;
  static final float ERF_P3 = 0.003765546018257737f;
  static final float ERF_P4 = 0.000284878711681813f;
  static final float ERF_P5 = 2.0500654045463307e-06f;
  /** erf's denominator Q(z) = 1 + Q1 z + ... + Q5 z^5. */
  static final float ERF_Q1 = 0.5020748972892761f;
  static final float ERF_Q2 = 0.11410851776599884f;
  static final float ERF_Q3 = 0.01496907975524664f;
  static final float ERF_Q4 = 0.0011625137412920594f;
  static final float ERF_Q5 = 3.809128247667104e-05f;
  /** tanh's bound in ulps over every float, as FloatMathTest measures it. */
  static final double TANH_ULPS = 4.92;
  /** From this magnitude on tanh is +-1 (its rational function is fitted below it). */
  static final float TANH_ONE = 9.02f;
  /** tanh's numerator P(z) = 1 + P1 z + ... + P6 z^6. */
  static final float TANH_P1 = 0.13084952533245087f;
  static final float TANH_P2 = 0.0031049696262925863f;
  static final float TANH_P3 = 1.1163801900693215e-05f;
  static final float TANH_P4 = -2.025711687281273e-08f;
  static final float TANH_P5 = 5.289756480064689e-11f;
  static final float TANH_P6 = -8.51024979653392e-14f;
  /** tanh's denominator Q(z) = 1 + Q1 z + Q2 z^2 + Q3 z^3. */
  static final float TANH_Q1 = 0.4641827940940857f;
  static final float TANH_Q2 = 0.024499323219060898f;
  static final float TANH_Q3 = 0.0002547555777709931f;
  /** The bits of 1f. */
  private static final int ONE_BITS = 0x3f800000;

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

  /**
   * The hyperbolic tangent: {@code a * P(z) / Q(z)} with {@code a = |x|} and {@code z = a * a}, P of
   * degree 6 and Q of degree 3 (both 1 at zero, so {@code tanh(x) = x} exactly where {@code x * x}
   * underflows, and for -0), its magnitude clamped to 1 by its bits, with x's sign; {@code +-1} from
   * {@code |x| = }{@value #TANH_ONE} on (tanh rounds to 1 in float from 9.0109); a NaN argument
   * gives itself. The rational function is fitted to {@code tanh(x)/x} on {@code |x| <= 9.02}
   * ({@code scripts/tanh-fit.py}). At most {@value #TANH_ULPS} ulp from the correctly rounded
   * result, measured over every float.
   *
   * <p>Why a quotient: nine multiply-adds, a multiply, a divide, and bit operations and two blends
   * on every SIMD lane, where the previous form (an exponential and a divide above 0.625, an odd
   * polynomial below; 1.34 ulp) had each lane compute both, 2.5 times the vector work: the LSTM
   * cell, two tanh and three sigmoids an element, spent 40% of its time in tanh. The price is
   * accuracy: the roundings of P, Q, the product and the quotient, each up to an ulp of a result
   * just below 1, bound the error, not the fit (about 7e-9 relative).
   */
  static float tanh(float x) {
    float a = Math.abs(x);
    if (!(a < TANH_ONE)) {
      return a != a ? x : Math.copySign(1f, x);
    }
    float z = a * a;
    float p = TANH_P6;
    p = Math.fma(p, z, TANH_P5);
    p = Math.fma(p, z, TANH_P4);
    p = Math.fma(p, z, TANH_P3);
    p = Math.fma(p, z, TANH_P2);
    p = Math.fma(p, z, TANH_P1);
    p = Math.fma(p, z, 1f);
    float q = TANH_Q3;
    q = Math.fma(q, z, TANH_Q2);
    q = Math.fma(q, z, TANH_Q1);
    q = Math.fma(q, z, 1f);
    float r = a * p / q; // positive (or +0) below TANH_ONE
    int magnitude = Math.min(Float.floatToRawIntBits(r), ONE_BITS);
    return Float.intBitsToFloat(magnitude | (Float.floatToRawIntBits(x) & 0x80000000));
  }

  /** {@code 1 / (1 + exp(-x))}, as {@code exp(x) / (1 + exp(x))} for negative x (no overflow, subnormal tails). */
  static float sigmoid(float x) {
    float e = exp(-Math.abs(x));
    float d = 1f + e;
    return x >= 0f ? 1f / d : e / d;
  }

  /**
   * The error function, in float arithmetic: {@code x * P(z) / Q(z)} with {@code z = x * x}, P and Q
   * of degree 5 (Q's constant term 1), a rational function fitted to {@code erf(x)/x} over {@code
   * |x| <= 3.92} (iteratively reweighted least squares for the smallest relative error, the
   * coefficients rounded to float and then nudged an ulp at a time to the smallest error of the float
   * evaluation: {@code scripts/erf-fit.py}). Its magnitude is clamped to 1 by its bits (from {@code
   * |x| = 3.9966} on the quotient is above 1, or NaN where {@code z}, P or Q overflow: both clamp to
   * 1), with x's sign; a NaN argument gives itself. At most {@value #ERF_ULPS} ulp from the correctly
   * rounded result, measured over every float (see KMath's table); never above 1 in magnitude.
   *
   * <p>Why a quotient: ten multiply-adds, a multiply and a divide, where the previous form evaluated
   * two polynomials (degrees 6 and 16, 23 multiply-adds) on every SIMD lane and blended them: GELU's
   * forward pass, bound by erf's vector operations, took 1.5x as long (docs/BENCHMARKS.md). The
   * price is accuracy: the old form was within 1.15 ulp, this one within {@value #ERF_ULPS} (5.94 at
   * worst, 0.66 on average over [0, 4.5)); its four roundings (P, Q, the product and the quotient)
   * bound it, not the fit. {@code VectorMathCode} writes the same operations into SIMD kernels and
   * {@code kiln/math.cuh} computes the same bits.
   */
  static float erf(float x) {
    float z = x * x;
    float p = ERF_P5;
    p = Math.fma(p, z, ERF_P4);
    p = Math.fma(p, z, ERF_P3);
    p = Math.fma(p, z, ERF_P2);
    p = Math.fma(p, z, ERF_P1);
    p = Math.fma(p, z, ERF_P0);
    float q = ERF_Q5;
    q = Math.fma(q, z, ERF_Q4);
    q = Math.fma(q, z, ERF_Q3);
    q = Math.fma(q, z, ERF_Q2);
    q = Math.fma(q, z, ERF_Q1);
    q = Math.fma(q, z, 1f);
    float r = x * p / q;
    // |r| <= 1 by its bits (an int minimum; a NaN quotient's bits are above 1's), then x's sign
    int magnitude = Math.min(Float.floatToRawIntBits(r) & 0x7fffffff, ONE_BITS);
    float e = Float.intBitsToFloat(magnitude | (Float.floatToRawIntBits(x) & 0x80000000));
    return x != x ? x : e;
  }

}
