package dev.kiln.examples;

import dev.kiln.runtime.FloatTensor;
import dev.kiln.runtime.Kiln;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Example 2: a composite and its fusion report. {@link ExampleOps#block} is three calls ({@code
 * addBias}, {@code gelu}, {@code add}); Kiln fuses them into one kernel. This runs it, compares
 * with the plain Java, and prints what the build wrote about the fusion ({@code ExampleOps.ir.txt};
 * the same as a picture in {@code examples/target/classes/META-INF/kiln/dev/kiln/examples/ExampleOps.fusion.html}).
 *
 * <pre>java -cp examples/target/kiln-examples.jar dev.kiln.examples.FusedComposite</pre>
 */
public final class FusedComposite {
  private FusedComposite() {}

  public static void main(String[] args) throws IOException {
    int b = 256;
    int n = 1024;
    float[] xs = new float[b * n];
    float[] bias = new float[n];
    java.util.Random random = new java.util.Random(1);
    for (int i = 0; i < xs.length; i++) {
      xs[i] = (float) random.nextGaussian();
    }
    for (int i = 0; i < n; i++) {
      bias[i] = 0.1f * (float) random.nextGaussian();
    }
    float[] plain = new float[b * n];
    ExampleOps.block(b, n, xs, bias, plain);
    float[] fused;
    try (FloatTensor x = FloatTensor.of(xs); FloatTensor c = FloatTensor.of(bias); FloatTensor y = FloatTensor.zeros(b * n)) {
      ExampleOpsKernels.block(b, n, x, c, y);
      fused = y.toArray();
    }
    System.out.printf(Locale.ROOT, "block on %s: %s%n%n", Kiln.device(),
        java.util.Arrays.equals(plain, fused) ? "the fused kernel gives the plain Java's floats exactly"
            : "the fused kernel agrees with the plain Java within rounding (GPU)");
    System.out.println("What the build says about it (META-INF/kiln/dev/kiln/examples/ExampleOps.ir.txt):");
    System.out.println(compositeSection("block"));
  }

  /** The lines of the IR listing about composite {@code name}: its calls, the kernels, each edge. */
  static String compositeSection(String name) throws IOException {
    String listing;
    try (InputStream in = FusedComposite.class.getClassLoader()
        .getResourceAsStream("META-INF/kiln/dev/kiln/examples/ExampleOps.ir.txt")) {
      if (in == null) {
        throw new IOException("ExampleOps.ir.txt is not on the class path");
      }
      listing = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    int from = listing.indexOf("composite " + name + "(");
    if (from < 0) {
      throw new IOException("no composite " + name + " in the listing");
    }
    int to = listing.indexOf("\n\n", from);
    return listing.substring(from, to < 0 ? listing.length() : to);
  }
}
