package dev.kiln.sample;

import dev.kiln.runtime.cpu.CpuExecutor;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * The fusion benchmark: each composite as plain Java, as Kiln kernels without fusion, and fused,
 * side by side with a streaming copy of the same bytes (the machine's bandwidth at that size), in
 * one run. Prints a table; exits 1 when a fused result differs from plain Java beyond 1e-4.
 *
 * <pre>java -cp sample-app/target/kiln-sample-app.jar dev.kiln.sample.FusionBench [--rows R] [--cols C] [--reps K]</pre>
 */
public final class FusionBench {
  private static final String FORMAT = "%-10s %-16s %9s %10s %10s %10s %8s %8s %8s %9s %10s%n";

  private FusionBench() {}

  public static void main(String[] args) {
    int rows = 512;
    int cols = 1024;
    int reps = 7;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (i + 1 >= args.length || !(a.equals("--rows") || a.equals("--cols") || a.equals("--reps"))) {
        System.err.println("usage: FusionBench [--rows R] [--cols C] [--reps K]");
        System.exit(2);
      }
      int v = Integer.parseInt(args[++i]);
      switch (a) {
        case "--rows": rows = v; break;
        case "--cols": cols = v; break;
        default: reps = v; break;
      }
    }
    System.exit(run(rows, cols, reps, System.out) ? 0 : 1);
  }

  /** Runs every case; false when a fused result differs from plain Java. */
  static boolean run(int rows, int cols, int reps, PrintStream out) {
    out.printf(Locale.ROOT, "Kiln fusion benchmark: %d CPU threads, Java %s, %s%n", CpuExecutor.threads(),
        System.getProperty("java.version"), System.getProperty("os.arch"));
    out.printf(Locale.ROOT, FORMAT, "composite", "shape", "MB", "plain ms", "unfused ms", "fused ms", "fused x",
        "GB/s", "% copy", "kernels", "max |diff|");
    boolean ok = true;
    for (FusionCase c : FusionCases.all(rows, cols, 42)) {
      double diff = c.maxAbsDiff();
      ok &= diff <= 1e-4;
      double plain = Bench.medianMillis(c.plain(), reps);
      double unfused = Bench.medianMillis(c.unfused(), reps);
      double fused = Bench.medianMillis(c.fused(), reps);
      StreamingCopy copy = new StreamingCopy(c.bytes());
      double copyMs = Math.min(Bench.medianMillis(copy::oneThread, reps), Bench.medianMillis(copy::allThreads, reps));
      double gbps = c.bytes() / (fused * 1e6);
      double copyGbps = c.bytes() / (copyMs * 1e6);
      out.printf(Locale.ROOT, FORMAT, c.name(), c.shape(), String.format(Locale.ROOT, "%.2f", c.bytes() / 1e6),
          ms(plain), ms(unfused), ms(fused), String.format(Locale.ROOT, "%.2f", unfused / fused),
          String.format(Locale.ROOT, "%.2f", gbps), String.format(Locale.ROOT, "%.0f%%", 100 * gbps / copyGbps),
          c.kernelsUnfused() + " -> " + c.kernelsFused(), String.format(Locale.ROOT, "%.1e", diff));
    }
    out.println("MB: the composite's least traffic (inputs read once, outputs written once). fused x: unfused ms /"
        + " fused ms. GB/s: MB over the fused time; % copy: that over the best streaming copy of the same bytes"
        + " (System.arraycopy, one thread or all threads).");
    return ok;
  }

  private static String ms(double v) {
    return String.format(Locale.ROOT, v < 1 ? "%.4f" : "%.2f", v);
  }

  static List<FusionCase> cases(int rows, int cols) {
    return FusionCases.all(rows, cols, 42);
  }
}
