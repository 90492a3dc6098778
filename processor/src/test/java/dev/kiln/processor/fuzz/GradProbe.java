package dev.kiln.processor.fuzz;

/**
 * One central-difference probe of a loss L (a sum of terms, each computed by the plain-Java
 * operator) around x along a direction: L's terms at {@code x}, {@code x +- h dir} and {@code x +-
 * (h/2) dir}, and the perturbation actually applied, {@code delta = (x + h dir) - (x - h dir)} after
 * rounding to the array's element type. Ported from the tests module's {@code Probe} (the processor
 * module cannot depend on it).
 *
 * <p>Smoothness is judged from these five values of L alone, never from the gradient under test:
 * with {@code A(s) = L(x+s) - L(x-s)} and {@code S(s) = L(x+s) + L(x-s) - 2L(x)}, a smooth L has an
 * odd gap {@code A(h) - 2A(h/2) = h^3 L'''/4} and an even gap {@code S(h) - 4S(h/2) = h^4
 * L''''/16}, both negligible. A kink (slope jump J) at distance {@code d < h} from x makes the
 * central difference wrong by {@code J (h - d)}, which is at most the even gap plus twice the odd
 * gap; so allowing the odd gap a quarter and the even gap half of the comparison's tolerance, a kink
 * that goes unnoticed cannot make a correct gradient fail. A jump of L itself shows in both gaps.
 */
final class GradProbe {
  /** The loss as terms {@code dY_i * Y_i} (double), with the differentiated argument replaced by x. */
  interface Loss {
    double[] terms(Object x) throws Exception;
  }

  private final double[] zero;
  private final double[] plus;
  private final double[] minus;
  private final double[] plusHalf;
  private final double[] minusHalf;
  private final double[] delta;

  private GradProbe(double[] zero, double[] plus, double[] minus, double[] plusHalf, double[] minusHalf, double[] delta) {
    this.zero = zero;
    this.plus = plus;
    this.minus = minus;
    this.plusHalf = plusHalf;
    this.minusHalf = minusHalf;
    this.delta = delta;
  }

  static GradProbe at(Loss loss, Object x, double[] zero, double[] dir, double h) throws Exception {
    Object p = GradPrecision.shifted(x, dir, h);
    Object m = GradPrecision.shifted(x, dir, -h);
    double[] delta = new double[dir.length];
    for (int j = 0; j < delta.length; j++) {
      delta[j] = GradPrecision.get(p, j) - GradPrecision.get(m, j);
    }
    return new GradProbe(zero, loss.terms(p), loss.terms(m),
        loss.terms(GradPrecision.shifted(x, dir, h / 2)), loss.terms(GradPrecision.shifted(x, dir, -h / 2)), delta);
  }

  /** The central difference {@code L(x + h dir) - L(x - h dir)}, term by term. */
  double change() {
    double sum = 0;
    for (int i = 0; i < zero.length; i++) {
      sum += plus[i] - minus[i];
    }
    return sum;
  }

  private double oddGap() {
    double sum = 0;
    for (int i = 0; i < zero.length; i++) {
      sum += (plus[i] - minus[i]) - 2 * (plusHalf[i] - minusHalf[i]);
    }
    return sum;
  }

  private double evenGap() {
    double sum = 0;
    for (int i = 0; i < zero.length; i++) {
      sum += (plus[i] + minus[i] - 2 * zero[i]) - 4 * (plusHalf[i] + minusHalf[i] - 2 * zero[i]);
    }
    return sum;
  }

  /** The largest magnitude of each term of L on the probe, summed: the scale of L's noise. */
  double noiseScale() {
    double sum = 0;
    for (int i = 0; i < zero.length; i++) {
      double z = zero[i];
      // every term, changed or not: a generated operator may absorb a tiny contribution (big + tiny * x
      // in float), so a term that did not change at all still hides a derivative below its rounding
      sum += Math.max(Math.max(Math.abs(z), Math.abs(plus[i])),
          Math.max(Math.abs(minus[i]), Math.max(Math.abs(plusHalf[i]), Math.abs(minusHalf[i]))));
    }
    return sum;
  }

  /** What the gradient predicts for {@link #change()}: {@code sum_j grad[j] delta[j]}. */
  double predicted(double[] grad) {
    double sum = 0;
    for (int j = 0; j < delta.length; j++) {
      if (delta[j] != 0) {
        sum += grad[j] * delta[j];
      }
    }
    return sum;
  }

  private double predictedMagnitude(double[] grad) {
    double sum = 0;
    for (int j = 0; j < delta.length; j++) {
      if (delta[j] != 0) {
        sum += Math.abs(grad[j] * delta[j]);
      }
    }
    return sum;
  }

  /** Null when L looks smooth and finite on the segment; otherwise why not. */
  String roughness(GradPrecision p) {
    double odd = oddGap();
    double even = evenGap();
    if (!Double.isFinite(odd) || !Double.isFinite(even) || !Double.isFinite(change())) {
      return "L is not finite near x";
    }
    double tolerance = p.tolerance(Math.abs(change()), noiseScale());
    if (Math.abs(odd) > tolerance / 4 || Math.abs(even) > tolerance / 2) {
      return String.format("L is not smooth near x (step-halving gaps %.3g and %.3g, allowed %.3g and %.3g)",
          odd, even, tolerance / 4, tolerance / 2);
    }
    return null;
  }

  /** The tolerance for comparing {@link #change()} with {@link #predicted}. */
  double tolerance(GradPrecision p, double[] grad) {
    double size = Math.max(Math.abs(change()), Math.abs(predicted(grad)));
    return p.tolerance(size, noiseScale() + predictedMagnitude(grad));
  }

  /** |change - predicted| / tolerance: at most 1 passes. */
  double ratio(GradPrecision p, double[] grad) {
    double t = tolerance(p, grad);
    double d = Math.abs(change() - predicted(grad));
    return d == 0 ? 0 : d / t;
  }
}
