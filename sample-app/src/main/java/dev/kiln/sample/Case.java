package dev.kiln.sample;

import java.util.function.Supplier;

/**
 * One row of the table: an operator run both ways on the same inputs.
 *
 * @param bytes the least bytes it reads and writes (see {@link Traffic})
 * @param flops its floating-point operations where they, not bytes, bound it; 0 where not counted
 * @param plainOut the arrays the plain-Java run writes, read after it ran
 * @param kernelOut the same for the kernel run
 */
record Case(String operator, String shape, long bytes, long flops,
            Runnable plain, Runnable kernel,
            Supplier<float[][]> plainOut, Supplier<float[][]> kernelOut) {

  /**
   * Runs both once and returns the largest absolute difference of their outputs, infinite where a
   * value is NaN or an output has another length. Operator outputs are filled with NaN first, so an
   * element the kernel never writes shows.
   */
  double maxAbsDiff() {
    fillNaN(plainOut.get());
    fillNaN(kernelOut.get());
    plain.run();
    kernel.run();
    float[][] p = plainOut.get();
    float[][] k = kernelOut.get();
    double max = 0;
    for (int a = 0; a < p.length; a++) {
      if (p[a].length != k[a].length) {
        return Double.POSITIVE_INFINITY;
      }
      for (int i = 0; i < p[a].length; i++) {
        double d = Math.abs((double) p[a][i] - k[a][i]);
        if (Double.isNaN(d)) {
          return Double.POSITIVE_INFINITY;
        }
        max = Math.max(max, d);
      }
    }
    return max;
  }

  private static void fillNaN(float[][] arrays) {
    for (float[] a : arrays) {
      java.util.Arrays.fill(a, Float.NaN);
    }
  }
}
