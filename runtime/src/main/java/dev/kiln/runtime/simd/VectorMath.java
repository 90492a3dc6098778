package dev.kiln.runtime.simd;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;

/**
 * {@code dev.kiln.KMath}'s float exp, tanh, sigmoid and erf over every lane of a {@link FloatVector},
 * bit for bit: the same operations as {@code dev.kiln.FloatMath} in the same order (multiplies and
 * adds rounded one at a time, never fused), its branches computed on every lane and chosen by
 * blends. So a SIMD kernel gives the same floats as its scalar kernel and its plain-Java source
 * ({@code VectorMathTest} compares them on every 61st float, or all with
 * {@code -Dkiln.ulp.exhaustive=true}).
 *
 * <p>Only generated {@code <Class>SimdKernels} call it, and only when {@link Simd#ENABLED}.
 */
public final class VectorMath {
  private static final float LOG2E = 1.44269504088896341f;
  private static final float LN2_HI = 0.693359375f;
  private static final float LN2_LO = -2.12194440e-4f;
  private static final float ROUND = 12582912f;
  private static final float EXP_MAX = 88.72283935546875f;
  private static final float EXP_MIN = -103.972084045410156f;
  private static final float ERF_SPLIT = 0.95f;
  private static final float ERF_ONE = 3.92f;
  private static final float ERF_MID = 2.435f;
  private static final float ERF_SCALE = 0.6734006734006734f;
  private static final int ROUND_BITS = Float.floatToRawIntBits(ROUND);
  private static final int SIGN = 0x80000000;
  private static final int ONE_BITS = 0x3f800000;

  private VectorMath() {}

  /** {@code KMath.exp(float)} on each lane. */
  public static FloatVector exp(FloatVector x) {
    FloatVector t = x.mul(LOG2E).add(ROUND);
    FloatVector kf = t.sub(ROUND);
    // t = 1.5 * 2^23 + n exactly, so its low bits are n: FloatMath's (int) kf, with no conversion
    IntVector n = t.reinterpretAsInts().sub(ROUND_BITS);
    FloatVector r = x.sub(kf.mul(LN2_HI)).sub(kf.mul(LN2_LO));
    FloatVector p = r.mul(1.9875691500E-4f).add(1.3981999507E-3f);
    p = p.mul(r).add(8.3334519073E-3f);
    p = p.mul(r).add(4.1665795894E-2f);
    p = p.mul(r).add(1.6666665459E-1f);
    p = p.mul(r).add(5.0000001201E-1f);
    p = p.mul(r.mul(r)).add(r).add(1f);
    IntVector n1 = n.lanewise(VectorOperators.ASHR, 1);
    FloatVector scale1 = n1.add(127).lanewise(VectorOperators.LSHL, 23).reinterpretAsFloats();
    FloatVector scale2 = n.sub(n1).add(127).lanewise(VectorOperators.LSHL, 23).reinterpretAsFloats();
    FloatVector e = p.mul(scale1).mul(scale2);
    e = e.blend(0f, x.lt(EXP_MIN));
    e = e.blend(Float.POSITIVE_INFINITY, x.compare(VectorOperators.GT, EXP_MAX));
    return e.blend(x, x.compare(VectorOperators.NE, x));
  }

  /** {@code KMath.tanh(float)} on each lane. */
  public static FloatVector tanh(FloatVector x) {
    FloatVector a = x.abs();
    IntVector sign = x.reinterpretAsInts().and(SIGN);
    // |x| from 0.625 to 9.1: copySign(1 - 2 / (exp(2|x|) + 1), x)
    FloatVector s = exp(a.mul(2f));
    FloatVector t = s.broadcast(1f).sub(s.broadcast(2f).div(s.add(1f)));
    FloatVector result = t.reinterpretAsInts().and(~SIGN).or(sign).reinterpretAsFloats();
    // below 0.625: an odd polynomial
    FloatVector z = x.mul(x);
    FloatVector p = z.mul(-5.70498872745E-3f).add(2.06390887954E-2f);
    p = p.mul(z).sub(5.37397155531E-2f);
    p = p.mul(z).add(1.33314422036E-1f);
    p = p.mul(z).sub(3.33332819422E-1f);
    FloatVector small = p.mul(z).mul(x).add(x);
    result = result.blend(small, a.lt(0.625f));
    result = result.blend(x, a.lt(0x1p-12f));
    FloatVector saturated = sign.or(ONE_BITS).reinterpretAsFloats();
    VectorMask<Float> notBelow = a.lt(9.1f).not();
    result = result.blend(saturated, notBelow);
    return result.blend(x, x.compare(VectorOperators.NE, x));
  }

  /** {@code KMath.sigmoid(float)} on each lane. */
  public static FloatVector sigmoid(FloatVector x) {
    FloatVector e = exp(x.abs().neg());
    FloatVector d = e.add(1f);
    FloatVector positive = d.broadcast(1f).div(d);
    return e.div(d).blend(positive, x.compare(VectorOperators.GE, 0f));
  }

  /**
   * {@code KMath.erf(float)} on each lane. In small methods (each under C2's FreqInlineSize of 325
   * bytecodes), so that a hot kernel inlines the whole of it: a vector that crosses a call C2 did
   * not inline is boxed, and the loop runs no faster than scalar code.
   */
  public static FloatVector erf(FloatVector x) {
    FloatVector a = x.abs();
    FloatVector z = x.mul(x);
    FloatVector result = erfTail(x, a, z);
    result = result.blend(x.add(x.mul(erfSmall(z))), a.lt(ERF_SPLIT)); // below 0.95: x + x * P(x*x)
    IntVector sign = x.reinterpretAsInts().and(SIGN);
    result = result.blend(sign.or(ONE_BITS).reinterpretAsFloats(), a.lt(ERF_ONE).not());
    return result.blend(x, x.compare(VectorOperators.NE, x));
  }

  /** P(z) of erf's first interval. */
  private static FloatVector erfSmall(FloatVector z) {
    FloatVector p = z.mul(-1.0081633263325784e-05f).add(0.0001139133091783151f);
    p = p.mul(z).add(-0.0008498809183947742f);
    p = p.mul(z).add(0.005221875384449959f);
    p = p.mul(z).add(-0.026865672320127487f);
    p = p.mul(z).add(0.11283785849809647f);
    p = p.mul(z).add(-0.37612637877464294f);
    p = p.mul(z).add(0.12837916612625122f);
    return p;
  }

  /** copySign(1 - exp(-x*x) * Q(t), x), t = (|x| - 2.435) * 0.6734007: erf from 0.95 to 3.92. */
  private static FloatVector erfTail(FloatVector x, FloatVector a, FloatVector z) {
    FloatVector q = erfLarge(a.sub(ERF_MID).mul(ERF_SCALE));
    FloatVector big = q.broadcast(1f).sub(exp(z.neg()).mul(q));
    return big.reinterpretAsInts().and(~SIGN).or(x.reinterpretAsInts().and(SIGN)).reinterpretAsFloats();
  }

  /** Q(t) of erf's second interval. */
  private static FloatVector erfLarge(FloatVector t) {
    FloatVector q = t.mul(-5.421784862846835e-06f).add(1.4786498468311038e-05f);
    q = q.mul(t).add(-2.2510881535708904e-05f);
    q = q.mul(t).add(6.0221227613510564e-05f);
    q = q.mul(t).add(-0.00017753956490196288f);
    q = q.mul(t).add(0.0004461287462618202f);
    q = q.mul(t).add(-0.0010795284761115909f);
    q = q.mul(t).add(0.0025698107201606035f);
    q = q.mul(t).add(-0.00593176344409585f);
    q = q.mul(t).add(0.013224838301539421f);
    q = q.mul(t).add(-0.028409140184521675f);
    q = q.mul(t).add(0.05857718735933304f);
    q = q.mul(t).add(-0.11537482589483261f);
    q = q.mul(t).add(0.21574655175209045f);
    return q;
  }
}
