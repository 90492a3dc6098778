package dev.kiln;

/**
 * Math functions for operator bodies. On the JVM they run exactly as written here: this class is
 * the reference every generated kernel is compared with. Generated CPU kernels call the same
 * methods; the CUDA backend maps each one to a device intrinsic of the same precision class.
 *
 * <p>Every function has a {@code float} and a {@code double} overload. The {@code double} overloads
 * are {@link Math}'s. The {@code float} overloads of {@code exp}, {@code tanh} and {@code sigmoid}
 * and {@code erf} compute in float (exp: range reduction and a polynomial; tanh and erf: a fitted quotient; no native call:
 * several times faster than going through {@code double}, and branch-free enough to vectorise),
 * within the error below of the correctly rounded result,
 * measured over every float; the other {@code float} overloads compute in {@code double} and round
 * once, so they are correctly rounded wherever {@link Math} is.
 *
 * <table>
 *   <caption>float overloads computed in float</caption>
 *   <tr><th>function</th><th>max error</th><th>special values</th></tr>
 *   <tr><td>exp</td><td>1 ulp</td><td>+Inf above 88.7228394, +0 below -103.9720840, subnormal between</td></tr>
 *   <tr><td>tanh</td><td>4.92 ulp (4.913; 1.34 before 2026-11-29)</td><td>+-0 kept, subnormals exact, +-1 from |x| = 9.02 (correctly rounded from 9.0109)</td></tr>
 *   <tr><td>sigmoid</td><td>2.41 ulp</td><td>1 for large x, subnormal down to 0 for very negative x</td></tr>
 *   <tr><td>erf</td><td>6 ulp (5.94; 0.66 on average over [0, 4.5))</td><td>+-0 kept, never above 1 in magnitude, +-1 from |x| = 3.9966 at the latest (correctly rounded from 3.9192)</td></tr>
 * </table>
 *
 * <p>The CUDA backend's {@code kiln::exp}, {@code kiln::tanh}, {@code kiln::sigmoid} and {@code kiln::erf} run the
 * same operations in the same order (a fused multiply-add, {@code __fmaf_rn}, exactly where the CPU
 * calls {@link Math#fma}: every Horner step and the range reduction), so device and CPU agree bit for bit
 * unless {@code -Akiln.cuda.math=fast} selects the hardware approximations.
 */
public final class KMath {
  private KMath() {}

  /** e^x, computed in float (at most 1 ulp from the correctly rounded result). */
  public static float exp(float x) { return FloatMath.exp(x); }
  public static double exp(double x) { return Math.exp(x); }

  public static float log(float x) { return (float) Math.log(x); }
  public static double log(double x) { return Math.log(x); }

  /** The hyperbolic tangent, one rational function computed in float (at most 4.92 ulp). */
  public static float tanh(float x) { return FloatMath.tanh(x); }
  public static double tanh(double x) { return Math.tanh(x); }

  /** The logistic function {@code 1 / (1 + exp(-x))}, computed in float (at most 2.41 ulp). */
  public static float sigmoid(float x) { return FloatMath.sigmoid(x); }
  public static double sigmoid(double x) { return 1.0 / (1.0 + Math.exp(-x)); }

  public static float sqrt(float x) { return (float) Math.sqrt(x); }
  public static double sqrt(double x) { return Math.sqrt(x); }

  /** The reciprocal square root {@code 1 / sqrt(x)}. */
  public static float rsqrt(float x) { return (float) (1.0 / Math.sqrt(x)); }
  public static double rsqrt(double x) { return 1.0 / Math.sqrt(x); }

  public static float abs(float x) { return Math.abs(x); }
  public static double abs(double x) { return Math.abs(x); }

  public static float min(float a, float b) { return Math.min(a, b); }
  public static double min(double a, double b) { return Math.min(a, b); }

  public static float max(float a, float b) { return Math.max(a, b); }
  public static double max(double a, double b) { return Math.max(a, b); }

  public static float pow(float x, float y) { return (float) Math.pow(x, y); }
  public static double pow(double x, double y) { return Math.pow(x, y); }

  public static float sin(float x) { return (float) Math.sin(x); }
  public static double sin(double x) { return Math.sin(x); }

  public static float cos(float x) { return (float) Math.cos(x); }
  public static double cos(double x) { return Math.cos(x); }

  /** The error function, without loops (at most 6 ulp; see the table above). */
  public static float erf(float x) { return FloatMath.erf(x); }

  /**
   * The error function, to about 1e-15 relative accuracy: its Maclaurin series below |x| = 2.5, one
   * minus the continued fraction of erfc above, and +-1 beyond |x| = 6.
   */
  public static double erf(double x) {
    if (Double.isNaN(x)) {
      return x;
    }
    double ax = Math.abs(x);
    double r;
    if (ax < 2.5) {
      r = erfSeries(ax);
    } else if (ax < 6.0) {
      r = 1.0 - erfcContinuedFraction(ax);
    } else {
      r = 1.0;
    }
    return x < 0 ? -r : r;
  }

  private static final double TWO_OVER_SQRT_PI = 1.1283791670955126;

  private static double erfSeries(double x) {
    double x2 = x * x;
    double term = x; // (-1)^n x^(2n+1) / n!
    double sum = x;
    for (int n = 1; n < 200; n++) {
      term *= -x2 / n;
      double add = term / (2 * n + 1);
      sum += add;
      if (Math.abs(add) < 1e-17 * Math.abs(sum)) {
        break;
      }
    }
    return TWO_OVER_SQRT_PI * sum;
  }

  /** erfc(x) for x >= 2.5 by the continued fraction of Laplace, evaluated with Lentz's method. */
  private static double erfcContinuedFraction(double x) {
    // erfc(x) = exp(-x^2)/sqrt(pi) * 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + ...)))))
    double tiny = 1e-300;
    double f = x;
    double c = x;
    double d = 0.0;
    for (int k = 1; k < 300; k++) {
      double a = k * 0.5;
      d = x + a * d;
      d = d == 0 ? tiny : d;
      c = x + a / c;
      c = c == 0 ? tiny : c;
      d = 1.0 / d;
      double delta = c * d;
      f *= delta;
      if (Math.abs(delta - 1.0) < 1e-16) {
        break;
      }
    }
    return Math.exp(-x * x) / (Math.sqrt(Math.PI) * f);
  }
}
