package dev.kiln.tests.grad;

import static org.junit.jupiter.api.Assertions.fail;

import dev.kiln.testing.Loss;
import dev.kiln.testing.Precision;
import dev.kiln.testing.Probe;
import java.util.SplittableRandom;

/**
 * Checks the gradient of L with respect to one array against central differences: once along a
 * random direction (every element perturbed, so every element's gradient counts), then at {@link
 * #SINGLES} random single elements. Each central difference is first judged smooth or not by
 * {@link Probe#roughness} (from L alone); a rough direction rejects the whole draw, a rough single
 * element is replaced by another one.
 */
final class GradientCheck {
  static final int SINGLES = 4;

  private final String what;
  private final Loss loss;
  private final Object x;
  private final double[] grad;
  private final Precision precision;

  /**
   * @param what names the operator and the array, for messages
   * @param grad the gradient under test, one entry per element of {@code x}
   */
  GradientCheck(String what, Loss loss, Object x, double[] grad, Precision precision) {
    this.what = what;
    this.loss = loss;
    this.x = x;
    this.grad = grad;
    this.precision = precision;
  }

  /**
   * Null when the gradient agrees with the central differences; the reason when L is too rough
   * around {@code x} to tell (the caller draws new inputs). A disagreement fails the test.
   */
  String run(SplittableRandom random) throws Exception {
    int n = grad.length;
    if (n == 0) {
      return null;
    }
    double[] l0 = loss.terms(x);
    double[] dir = new double[n];
    for (int j = 0; j < n; j++) {
      dir[j] = random.nextDouble(-1, 1) * scale(j);
    }
    Probe along = Probe.at(loss, x, l0, dir, precision.step);
    String rough = along.roughness(precision);
    if (rough != null) {
      return what + " along a random direction: " + rough;
    }
    if (!along.agrees(precision, grad)) {
      fail(mismatch("along a random direction", along));
    }
    int want = Math.min(SINGLES, n);
    int checked = 0;
    for (int tries = 0; checked < want && tries < 4 * SINGLES; tries++) {
      int j = random.nextInt(n);
      Probe at = Probe.at(loss, x, l0, unit(j), precision.step);
      if (at.roughness(precision) != null) {
        continue;
      }
      if (!at.agrees(precision, grad)) {
        fail(mismatch("at element [" + j + "]", at));
      }
      checked++;
    }
    return checked == want ? null : what + ": L is not smooth around most single elements tried";
  }

  /** The perturbation of element j for a unit step: relative to the element, at least absolute. */
  private double scale(int j) {
    return Math.max(1, Math.abs(Precision.get(x, j)));
  }

  private double[] unit(int j) {
    double[] dir = new double[grad.length];
    dir[j] = scale(j);
    return dir;
  }

  private String mismatch(String where, Probe probe) throws Exception {
    double twoH = 2 * precision.step;
    return String.format("%s disagrees with central differences %s: d/dt L(x + t v) is %.6g by central"
            + " differences but %.6g by the gradient (tolerance %.3g, h %.1g); %s",
        what, where, probe.change() / twoH, probe.predicted(grad) / twoH,
        probe.tolerance(precision, grad) / twoH, precision.step,
        Mismatch.perElement(loss, x, grad, precision));
  }
}
