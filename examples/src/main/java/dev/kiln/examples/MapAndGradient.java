package dev.kiln.examples;

import dev.kiln.KMath;
import dev.kiln.runtime.FloatTensor;
import dev.kiln.runtime.Kiln;
import java.util.Locale;

/**
 * Example 1: a map and its derived gradient. Runs {@link ExampleOps#gelu} over a million floats and
 * its gradient {@code geluGrad} (derived by Kiln at build time), on {@code Kiln.device()}, and
 * checks a few points against the plain Java and against central differences.
 *
 * <pre>java -cp examples/target/kiln-examples.jar dev.kiln.examples.MapAndGradient</pre>
 */
public final class MapAndGradient {
  private MapAndGradient() {}

  public static void main(String[] args) {
    int n = 1 << 20;
    float[] xs = new float[n];
    for (int i = 0; i < n; i++) {
      xs[i] = -4f + 8f * i / (n - 1);
    }
    System.out.println("gelu and its gradient over " + n + " floats on " + Kiln.device());
    float[] ones = new float[n];
    java.util.Arrays.fill(ones, 1f);
    try (FloatTensor x = FloatTensor.of(xs); FloatTensor y = FloatTensor.zeros(n);
        FloatTensor dy = FloatTensor.of(ones); FloatTensor dx = FloatTensor.zeros(n)) {
      ExampleOpsKernels.gelu(n, x, y);               // the kernel, on the CPU or the GPU
      ExampleOpsKernels.geluGrad(n, x, y, dy, dx);   // the derived gradient: dx = dy * gelu'(x)
      float[] values = y.toArray();
      float[] slopes = dx.toArray();
      float[] plain = new float[n];
      ExampleOps.gelu(n, xs, plain);                 // the same method, run as ordinary Java
      double worst = 0;
      System.out.printf(Locale.ROOT, "%8s %12s %12s %12s %14s%n", "x", "gelu", "plain Java", "gelu'", "central diff.");
      for (int i : new int[] {0, n / 8, n / 4, n / 2, 3 * n / 4, n - 1}) {
        double h = 1e-3;
        double fd = (geluDouble(xs[i] + h) - geluDouble(xs[i] - h)) / (2 * h);
        worst = Math.max(worst, Math.abs(fd - slopes[i]));
        System.out.printf(Locale.ROOT, "%8.3f %12.6f %12.6f %12.6f %14.6f%n", xs[i], values[i], plain[i], slopes[i], fd);
      }
      boolean same = java.util.Arrays.equals(values, plain);
      System.out.println(same ? "kernel = plain Java, bit for bit" : "kernel within rounding of plain Java (GPU)");
      System.out.printf(Locale.ROOT, "largest gap between gelu' and the central difference: %.1e%n", worst);
      if (worst > 1e-3) {
        throw new AssertionError("the gradient disagrees with the central difference");
      }
    }
  }

  private static double geluDouble(double v) {
    return 0.5 * v * (1 + KMath.erf(v * 0.70710678));
  }
}
