package dev.kiln.tests.grad;

import dev.kiln.testing.Loss;
import dev.kiln.testing.Precision;
import dev.kiln.testing.Probe;
/** Describes a failed gradient check element by element, like {@code Agreement}: count, first and worst. */
final class Mismatch {
  private Mismatch() {}

  /** Central differences of L at every element of {@code x}, compared with {@code grad}. */
  static String perElement(Loss loss, Object x, double[] grad, Precision precision) throws Exception {
    double[] l0 = loss.terms(x);
    int n = grad.length;
    int count = 0;
    int rough = 0;
    int first = -1;
    int worst = -1;
    double worstExcess = 0;
    double[] estimate = new double[n];
    for (int j = 0; j < n; j++) {
      double[] dir = new double[n];
      dir[j] = Math.max(1, Math.abs(Precision.get(x, j)));
      Probe p = Probe.at(loss, x, l0, dir, precision.step);
      estimate[j] = p.change() / p.delta(j);
      if (p.roughness(precision) != null) {
        rough++;
        continue;
      }
      double excess = (Math.abs(p.change() - p.predicted(grad)) - p.tolerance(precision, grad)) / Math.abs(p.delta(j));
      if (excess > 0 || Double.isNaN(excess)) {
        count++;
        if (first < 0) {
          first = j;
        }
        if (worst < 0 || excess > worstExcess || Double.isNaN(excess)) {
          worst = j;
          worstExcess = Double.isNaN(excess) ? Double.POSITIVE_INFINITY : excess;
        }
      }
    }
    if (first < 0) {
      return String.format("every one of %d elements agrees on its own (%d not smooth, skipped)", n, rough);
    }
    return String.format("%d of %d elements disagree (%d not smooth, skipped); first at [%d]: central"
            + " difference %.6g but gradient %.6g; worst at [%d]: central difference %.6g but gradient %.6g",
        count, n, rough, first, estimate[first], grad[first], worst, estimate[worst], grad[worst]);
  }

  /** Fails unless the arrays hold the same values (NaN matching NaN, 0 matching -0), naming the first and worst index. */
  static void exactly(String what, Object expected, Object actual) {
    int n = Precision.length(expected);
    int count = 0;
    int first = -1;
    int worst = -1;
    double worstDiff = -1;
    for (int i = 0; i < n; i++) {
      double e = Precision.get(expected, i);
      double a = Precision.get(actual, i);
      if (e == a || (Double.isNaN(e) && Double.isNaN(a))) {
        continue;
      }
      count++;
      first = first < 0 ? i : first;
      double diff = Double.isNaN(e - a) ? Double.POSITIVE_INFINITY : Math.abs(e - a);
      if (diff > worstDiff) {
        worst = i;
        worstDiff = diff;
      }
    }
    if (count > 0) {
      org.junit.jupiter.api.Assertions.fail(String.format(
          "%s: %d of %d elements differ; first at [%d]: expected %s but was %s; worst at [%d]: expected %s but was %s",
          what, count, n, first, Precision.get(expected, first), Precision.get(actual, first),
          worst, Precision.get(expected, worst), Precision.get(actual, worst)));
    }
  }
}
