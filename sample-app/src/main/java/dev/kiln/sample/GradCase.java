package dev.kiln.sample;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One composite's backward pass timed two ways on the same inputs: unfused (each primitive's own
 * generated gradient launcher in reverse order, the forward temporaries recomputed by the
 * primitives' forward launchers and gradients of tensors with several consumers summed with
 * {@code ElementwiseKernels.add}, all temporaries made beforehand), and Kiln's fused gradient
 * launcher ({@code BlocksKernels.<composite>Grad}).
 *
 * @param bytes the arrays the fused launcher reads and writes, each counted once (its own
 *     temporaries excluded)
 * @param unfused the launcher calls of the unfused backward, in order
 * @param kernelsFused the fused launcher's kernels, from the fusion report
 * @param gradNames the names of the input gradients, for messages
 * @param unfusedGrads the unfused run's input gradients; {@code fusedGrads} the fused run's
 */
record GradCase(String name, String shape, long bytes, Launches unfused, int kernelsFused, Runnable fused,
    List<String> gradNames, List<float[]> unfusedGrads, List<float[]> fusedGrads) {

  /** Relative tolerance of the check: float rounding, summed in different orders. */
  static final double TOLERANCE = 1e-4;

  /**
   * Runs both once and compares every input gradient: the largest |unfused - fused| and the
   * largest |unfused - fused| / (1 + |fused|), with the gradient where that one occurs.
   */
  Diff compare() {
    for (int k = 0; k < gradNames.size(); k++) {
      Arrays.fill(unfusedGrads.get(k), Float.NaN);
      Arrays.fill(fusedGrads.get(k), Float.NaN);
    }
    unfused.run();
    fused.run();
    double maxAbs = 0;
    double maxRel = 0;
    String where = gradNames.get(0);
    for (int k = 0; k < gradNames.size(); k++) {
      float[] u = unfusedGrads.get(k);
      float[] f = fusedGrads.get(k);
      for (int i = 0; i < u.length; i++) {
        double d = Math.abs((double) u[i] - f[i]);
        if (Double.isNaN(d)) {
          return new Diff(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, gradNames.get(k) + "[" + i + "] (NaN)");
        }
        double rel = d / (1 + Math.abs(f[i]));
        maxAbs = Math.max(maxAbs, d);
        if (rel > maxRel) {
          maxRel = rel;
          where = gradNames.get(k) + "[" + i + "] (" + u[i] + " unfused, " + f[i] + " fused)";
        }
      }
    }
    return new Diff(maxAbs, maxRel, where);
  }

  record Diff(double maxAbs, double maxRel, String worst) {
    boolean ok() {
      return maxRel <= TOLERANCE;
    }
  }

  /** A list of launcher calls, run in order; counts the calls and the kernels they start. */
  static final class Launches implements Runnable {
    private final List<Runnable> calls = new ArrayList<>();
    private int kernels;

    /**
     * Adds a call of the launcher {@code operator} of {@code owner}'s kernels class (the name is
     * only for its kernel count in {@code owner}'s fusion report).
     */
    Launches call(Class<?> owner, String operator, Runnable call) {
      calls.add(call);
      kernels += FusionReport.kernels(owner, operator);
      return this;
    }

    int calls() {
      return calls.size();
    }

    int kernels() {
      return kernels;
    }

    @Override
    public void run() {
      for (Runnable r : calls) {
        r.run();
      }
    }
  }
}
