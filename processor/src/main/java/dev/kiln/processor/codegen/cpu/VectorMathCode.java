package dev.kiln.processor.codegen.cpu;

import static dev.kiln.processor.codegen.cpu.SimdKernelWriter.FLOAT_VECTOR;
import static dev.kiln.processor.codegen.cpu.SimdKernelWriter.VECTOR_OPERATORS;

import com.palantir.javapoet.CodeBlock;
import dev.kiln.processor.codegen.Names;
import dev.kiln.processor.ir.MathFn;

/**
 * Writes {@code KMath}'s float exp, tanh, sigmoid and erf over every lane of a {@code FloatVector}
 * as statements in the kernel itself, bit for bit: the operations of {@code dev.kiln.FloatMath} in
 * the same order (a fused multiply-add where it calls {@code Math.fma}, both correctly rounded; every
 * other multiply and add rounded on its own), its branches computed on every lane and chosen by blends.
 * A NaN argument gives a NaN (not necessarily the argument's own bits, which {@code FloatMath}
 * returns): the comparisons that choose a branch are written so that NaN fails them all and the
 * chosen branch's arithmetic carries the NaN through, with no blend of its own.
 *
 * <p>Why in the kernel and not calls to a runtime library: C2 stops inlining ordinary methods once
 * a compilation passes its node budget (the Vector API's own methods are force-inlined and do not
 * stop), and a vector passed to a method C2 did not inline is boxed. erf alone passes that budget:
 * called as a method of five small methods, GELU's kernel ran at 2.4 ns a float on one thread;
 * written out here, at 1.5. Tested against {@code KMath} on every 997th float by the tests
 * module's {@code VectorMathTest}.
 */
final class VectorMathCode extends VectorStatements {
  VectorMathCode(CodeBlock.Builder out, Names names) {
    super(out, names);
  }

  /** Writes {@code fn} of the vector named {@code x}; returns the result's name. */
  String call(MathFn fn, String x) {
    switch (fn) {
      case EXP: return exp(x);
      case TANH: return tanh(x);
      case SIGMOID: return sigmoid(x);
      case ERF: return erf(x);
      default: throw new IllegalArgumentException("no vector form written for " + fn);
    }
  }

  /**
   * FloatMath.exp: n = round(x log2 e), r = x - n ln 2 (in two parts), a degree-7 polynomial, times
   * 2^n. When every lane's |x| is at most 87.3 (the usual case: softmax's {@code x - max}, a
   * sigmoid's {@code -|x|}), 2^n is one normal float and the product is FloatMath's two halves'
   * product exactly, so the kernel multiplies once and skips the blends for zeros and infinities;
   * otherwise (a branch on the vector) it takes FloatMath's whole path. A NaN lane fails both
   * comparisons and stays NaN through the polynomial and the scaling.
   */
  String exp(String x) {
    return exp(x, false);
  }

  /**
   * As {@link #exp(String)}; {@code neverPositive} says that no lane of x is above zero (a sigmoid's
   * {@code -|x|}), so that only the low bound needs testing: one comparison where |x| needs two
   * operations. Either test sends the same lanes down each path for such an x, NaN included.
   */
  private String exp(String x, boolean neverPositive) {
    String biased = names.fresh("expB");
    String p = expPolynomial(x, biased);
    String e = names.fresh("exp");
    out.addStatement("$T $N", FLOAT_VECTOR, e);
    if (neverPositive) {
      out.beginControlFlow("if ($N.compare($T.LT, -87.3f).anyTrue())", x, VECTOR_OPERATORS);
    } else {
      out.beginControlFlow("if ($N.abs().compare($T.GT, 87.3f).anyTrue())", x, VECTOR_OPERATORS);
    }
    String n = ints("expN", "$N.sub(127)", biased);
    String n1 = ints("expN", "$N.lanewise($T.ASHR, 1)", n, VECTOR_OPERATORS);
    String scale1 = vec("expS", "$N.add(127).lanewise($T.LSHL, 23).reinterpretAsFloats()", n1, VECTOR_OPERATORS);
    String scale2 = vec("expS", "$N.sub($N).lanewise($T.LSHL, 23).reinterpretAsFloats()", biased, n1,
        VECTOR_OPERATORS);
    String whole = vec("exp", "$N.mul($N).mul($N)", p, scale1, scale2);
    whole = vec("exp", "$N.blend(0f, $N.lt(-103.972084045410156f))", whole, x);
    out.addStatement("$N = $N.blend($T.POSITIVE_INFINITY, $N.compare($T.GT, 88.72283935546875f))", e, whole,
        Float.class, x, VECTOR_OPERATORS);
    out.nextControlFlow("else");
    out.addStatement("$N = $N.mul($N.lanewise($T.LSHL, 23).reinterpretAsFloats())", e, p, biased,
        VECTOR_OPERATORS);
    out.endControlFlow();
    return e;
  }

  /**
   * The reduction and polynomial of FloatMath.exp; declares the integer vector {@code biased}, the
   * power of two plus the exponent bias 127 (the scale 2^n's exponent field, and n itself less a
   * subtraction on the path that needs it).
   */
  private String expPolynomial(String x, String biased) {
    String t = vec("expT", "$N.fma(1.44269504088896341f, 12582912f)", x);
    String kf = vec("expK", "$N.sub(12582912f)", t);
    // t = 1.5 * 2^23 + n exactly, so its low bits are n: FloatMath's (int) kf, with no conversion,
    // and the bias added in the same subtraction
    out.addStatement("final $T $N = $N.reinterpretAsInts().sub($L)", INT_VECTOR, biased, t,
        Float.floatToRawIntBits(12582912f) - 127);
    String r = vec("expR", "$N.fma($N.broadcast(-0.693359375f), $N)", kf, x, x);
    r = vec("expR", "$N.fma($N.broadcast(2.12194440e-4f), $N)", kf, x, r);
    String p = horner("expP", r, "1.9875691500E-4", "1.3981999507E-3", "8.3334519073E-3", "4.1665795894E-2",
        "1.6666665459E-1", "5.0000001201E-1");
    return vec("expP", "$N.mul($N.mul($N)).add($N).add(1f)", p, r, r, r);
  }

  /**
   * FloatMath.tanh: {@code |x| * P(x²) / Q(x²)}, its magnitude clamped to 1 by an int minimum on its
   * bits, x's sign, and a NaN argument blended back (the clamps would make it 1). Where FloatMath
   * returns +-1 from |x| = 9.02 on by a branch, the lanes here clamp |x| to 9.02 first (an int
   * minimum on its bits, which takes +Inf and NaN there too): the quotient at 9.02 is 1.0f exactly
   * (VectorMathTest checks the lanes above it), so they give FloatMath's +-1 with no comparison,
   * blend or second constant, and no lane's x² or P overflows.
   */
  String tanh(String x) {
    String a = vec("tanhA", "$N.abs().reinterpretAsInts().min($L).reinterpretAsFloats()", x,
        Float.floatToRawIntBits(9.02f));
    String z = vec("tanhZ", "$N.mul($N)", a, a);
    String p = horner("tanhP", z, "-8.51024979653392e-14", "5.289756480064689e-11", "-2.025711687281273e-08", "1.1163801900693215e-05", "0.0031049696262925863", "0.13084952533245087", "1.0");
    String q = horner("tanhQ", z, "0.0002547555777709931", "0.024499323219060898", "0.4641827940940857", "1.0");
    String r = vec("tanhR", "$N.mul($N).div($N)", a, p, q);
    String sign = ints("tanhSign", "$N.reinterpretAsInts().and(0x80000000)", x);
    String t = vec("tanh", "$N.reinterpretAsInts().min(0x3f800000).or($N).reinterpretAsFloats()", r, sign);
    return vec("tanh", "$N.blend($N, $N.test($T.IS_NAN))", t, x, x, VECTOR_OPERATORS);
  }

  /**
   * FloatMath.sigmoid: e = exp(-|x|); 1 / (1 + e) for x >= 0, else e / (1 + e). One division a
   * lane: the numerator is chosen first (1 or e), so each lane divides the operands FloatMath's
   * branch divides, with the same bits, where dividing both and blending the quotients cost a second
   * division (the slowest vector instruction here). A NaN lane fails the comparison and divides NaN.
   */
  String sigmoid(String x) {
    // -|x| by setting the sign bit: one operation where abs().neg() is two, the same bits
    String e = exp(vec("sigmoidA", "$N.reinterpretAsInts().or(0x80000000).reinterpretAsFloats()", x), true);
    String d = vec("sigmoidD", "$N.add(1f)", e);
    String numerator = vec("sigmoidN", "$N.blend(1f, $N.compare($T.GE, 0f))", e, x, VECTOR_OPERATORS);
    return vec("sigmoid", "$N.div($N)", numerator, d);
  }

  /**
   * FloatMath.erf: {@code x * P(x²) / Q(x²)}, its magnitude clamped to 1 by an int minimum on its bits
   * (a NaN quotient, where x², P or Q overflow, clamps to 1 too), x's sign, and a NaN argument
   * blended back in. Ten multiply-adds, a multiply, a divide and five bit operations: no branch,
   * no blend of two evaluated branches.
   */
  String erf(String x) {
    String z = vec("erfZ", "$N.mul($N)", x, x);
    String p = horner("erfP", z, "2.0500654045463307e-06", "0.000284878711681813", "0.003765546018257737",
        "0.052748505026102066", "0.19040514528751373", "1.1283791065216064");
    String q = horner("erfQ", z, "3.809128247667104e-05", "0.0011625137412920594", "0.01496907975524664",
        "0.11410851776599884", "0.5020748972892761", "1");
    String r = vec("erfR", "$N.mul($N).div($N)", x, p, q);
    String magnitude = ints("erfM", "$N.reinterpretAsInts().and(0x7fffffff).min(0x3f800000)", r);
    String signed = vec("erfS", "$N.or($N.reinterpretAsInts().and(0x80000000)).reinterpretAsFloats()", magnitude, x);
    return vec("erf", "$N.blend($N, $N.test($T.IS_NAN))", signed, x, x, VECTOR_OPERATORS);
  }


}
