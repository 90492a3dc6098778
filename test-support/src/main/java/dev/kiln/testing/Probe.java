package dev.kiln.testing;

/**
 * One central-difference probe of a {@link Loss} L around x along a direction: L's terms at {@code
 * x}, {@code x +- h dir} and {@code x +- (h/2) dir}, and the perturbation actually applied, {@code
 * delta = (x + h dir) - (x - h dir)} after rounding to the array's element type. Shared by the tests
 * module's gradient check and the processor's gradient fuzzer (each had its own copy before).
 *
 * <p>Whether L is smooth on the segment is judged from these five values alone, never from the
 * gradient under test. With {@code A(s) = L(x+s) - L(x-s)} and {@code S(s) = L(x+s) + L(x-s) -
 * 2L(x)}, a smooth L has an odd gap {@code A(h) - 2A(h/2) = h^3 L'''/4} and an even gap {@code S(h)
 * - 4S(h/2) = h^4 L''''/16}, both negligible. A kink (the slope jumps by J) at distance {@code d}
 * from x makes them {@code J d} and {@code J |3d - h|} when {@code d < h/2}, and both {@code J (h -
 * d)}, the central difference's own error, when {@code h/2 <= d < h}; the central difference is off
 * by {@code J (h - d)}, which is at most the even gap plus twice the odd gap. So with the odd gap
 * allowed a quarter and the even gap half of the check's tolerance (from the central difference
 * alone), a kink that goes unnoticed cannot make a correct gradient fail. A jump of the value itself
 * shows in both gaps at full size.
 */
public final class Probe {
  /** Which terms of L count towards the scale of its rounding noise. */
  public enum Noise {
    /**
     * Only the terms the perturbation changed: outputs it does not reach add neither noise nor
     * tolerance (the tests module's check of hand-written operators).
     */
    CHANGED_TERMS,
    /**
     * Every term: a generated operator may absorb a tiny contribution ({@code big + tiny * x} in
     * float), so a term that did not change at all still hides a derivative below its rounding (the
     * processor's fuzzer, whose operators are random).
     */
    EVERY_TERM
  }

  private final double[] zero;
  private final double[] plus;
  private final double[] minus;
  private final double[] plusHalf;
  private final double[] minusHalf;
  private final double[] delta;
  private final Noise noise;

  private Probe(double[] zero, double[] plus, double[] minus, double[] plusHalf, double[] minusHalf, double[] delta,
      Noise noise) {
    this.zero = zero;
    this.plus = plus;
    this.minus = minus;
    this.plusHalf = plusHalf;
    this.minusHalf = minusHalf;
    this.delta = delta;
    this.noise = noise;
  }

  /** A probe of {@code loss} at {@code x} ({@code zero}: its terms there) along {@code dir}, step {@code h}. */
  public static Probe at(Loss loss, Object x, double[] zero, double[] dir, double h, Noise noise) throws Exception {
    Object p = Precision.shifted(x, dir, h);
    Object m = Precision.shifted(x, dir, -h);
    double[] delta = new double[dir.length];
    for (int j = 0; j < delta.length; j++) {
      delta[j] = Precision.get(p, j) - Precision.get(m, j);
    }
    return new Probe(zero, loss.terms(p), loss.terms(m),
        loss.terms(Precision.shifted(x, dir, h / 2)), loss.terms(Precision.shifted(x, dir, -h / 2)), delta, noise);
  }

  /** As above, counting {@link Noise#CHANGED_TERMS}. */
  public static Probe at(Loss loss, Object x, double[] zero, double[] dir, double h) throws Exception {
    return at(loss, x, zero, dir, h, Noise.CHANGED_TERMS);
  }

  /** The perturbation applied to element {@code j}, after rounding. */
  public double delta(int j) {
    return delta[j];
  }

  /** The central difference {@code L(x + h dir) - L(x - h dir)}, summed term by term. */
  public double change() {
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

  /** The largest magnitude of each term of L on the probe (of those {@link Noise} counts), summed: the scale of L's noise. */
  public double noiseScale() {
    double sum = 0;
    for (int i = 0; i < zero.length; i++) {
      double z = zero[i];
      boolean changed = plus[i] != z || minus[i] != z || plusHalf[i] != z || minusHalf[i] != z;
      if (changed || noise == Noise.EVERY_TERM) {
        sum += Math.max(Math.max(Math.abs(z), Math.abs(plus[i])),
            Math.max(Math.abs(minus[i]), Math.max(Math.abs(plusHalf[i]), Math.abs(minusHalf[i]))));
      }
    }
    return sum;
  }

  /** What the gradient predicts for {@link #change()}: {@code sum_j grad[j] delta[j]}. */
  public double predicted(double[] grad) {
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
  public String roughness(Precision p) {
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
  public double tolerance(Precision p, double[] grad) {
    double size = Math.max(Math.abs(change()), Math.abs(predicted(grad)));
    return p.tolerance(size, noiseScale() + predictedMagnitude(grad));
  }

  /** Whether the gradient's prediction agrees with the central difference. */
  public boolean agrees(Precision p, double[] grad) {
    return Math.abs(change() - predicted(grad)) <= tolerance(p, grad);
  }

  /** {@code |change - predicted| / tolerance}: at most 1 passes. */
  public double ratio(Precision p, double[] grad) {
    double t = tolerance(p, grad);
    double d = Math.abs(change() - predicted(grad));
    return d == 0 ? 0 : d / t;
  }
}
