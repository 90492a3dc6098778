package dev.kiln.sample;

/**
 * One composite timed three ways on the same inputs: the composite as plain Java (each call runs
 * the primitive's source), Kiln without fusion (each primitive's generated kernel in turn, with its
 * temporaries made beforehand), and Kiln's fused launcher.
 *
 * @param bytes the least traffic of the composite: its inputs read once and its outputs written once
 * @param kernelsUnfused launches without fusion (one per call); {@code kernelsFused} after fusion
 * @param output the fused run's output array, compared with {@code reference} (the plain run's)
 */
record FusionCase(String name, String shape, long bytes, int kernelsUnfused, int kernelsFused,
    Runnable plain, Runnable unfused, Runnable fused, float[] reference, float[] output) {

  /** The largest |difference| between the fused and the plain outputs after one run of each. */
  double maxAbsDiff() {
    java.util.Arrays.fill(reference, Float.NaN);
    java.util.Arrays.fill(output, Float.NaN);
    plain.run();
    fused.run();
    double max = 0;
    for (int i = 0; i < reference.length; i++) {
      double d = Math.abs((double) reference[i] - output[i]);
      if (Double.isNaN(d)) {
        return Double.POSITIVE_INFINITY;
      }
      max = Math.max(max, d);
    }
    return max;
  }
}
