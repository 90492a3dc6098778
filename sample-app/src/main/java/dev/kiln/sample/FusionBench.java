package dev.kiln.sample;

import dev.kiln.runtime.cpu.CpuExecutor;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * The fusion benchmark: each composite as plain Java, as Kiln kernels without fusion, and fused,
 * side by side with a streaming copy of the same bytes (the machine's bandwidth at that size), in
 * one run; then its backward pass, Kiln's fused gradient launcher against the primitives' own
 * gradient launchers called in reverse order ({@link GradCases}). Prints a table; exits 1 when a
 * fused forward result differs from plain Java beyond 1e-4, or a fused gradient from the unfused
 * one beyond {@link GradCase#TOLERANCE} (relative).
 *
 * <pre>java -cp sample-app/target/kiln-sample-app.jar dev.kiln.sample.FusionBench [--rows R] [--cols C] [--reps K]</pre>
 */
public final class FusionBench {
  private static final String FORMAT = "%-10s %-8s %-16s %9s %10s %10s %10s %8s %8s %8s %9s %10s%n";

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

  /** Runs every case, forward and backward; false when a check fails. */
  static boolean run(int rows, int cols, int reps, PrintStream out) {
    out.printf(Locale.ROOT, "Kiln fusion benchmark: %d CPU threads, Java %s, %s%n", CpuExecutor.threads(),
        System.getProperty("java.version"), System.getProperty("os.arch"));
    out.printf(Locale.ROOT, FORMAT, "composite", "pass", "shape", "MB", "plain ms", "unfused ms", "fused ms",
        "fused x", "GB/s", "% copy", "kernels", "max |diff|");
    boolean ok = true;
    List<FusionCase> forward = FusionCases.all(rows, cols, 42);
    List<GradCase> backward = GradCases.all(rows, cols, 42);
    StringBuilder notes = new StringBuilder();
    for (int k = 0; k < forward.size(); k++) {
      FusionCase c = forward.get(k);
      double diff = c.maxAbsDiff();
      ok &= diff <= 1e-4;
      double plain = Bench.medianMillis(c.plain(), reps);
      double unfused = Bench.medianMillis(c.unfused(), reps);
      double fused = Bench.medianMillis(c.fused(), reps);
      row(out, c.name(), "forward", c.shape(), c.bytes(), ms(plain), unfused, fused, copyMillis(c.bytes(), reps),
          c.kernelsUnfused() + " -> " + c.kernelsFused(), String.format(Locale.ROOT, "%.1e", diff));

      GradCase g = backward.get(k);
      GradCase.Diff d = g.compare();
      if (!d.ok()) {
        ok = false;
        String msg = String.format(Locale.ROOT, "FAILED: %s backward: fused and unfused gradients differ beyond %.0e"
            + " (relative): worst at %s", g.name(), GradCase.TOLERANCE, d.worst());
        out.println(msg);
        System.err.println(msg);
        continue;
      }
      double gUnfused = Bench.medianMillis(g.unfused(), reps);
      double gFused = Bench.medianMillis(g.fused(), reps);
      row(out, g.name(), "backward", g.shape(), g.bytes(), "-", gUnfused, gFused, copyMillis(g.bytes(), reps),
          g.unfused().kernels() + " -> " + g.kernelsFused(), String.format(Locale.ROOT, "%.1e", d.maxAbs()));
      if (g.unfused().calls() != g.unfused().kernels()) {
        notes.append(String.format(Locale.ROOT, "%s backward unfused: %d launcher calls, %d kernels (some primitive"
            + " gradients are two kernels).%n", g.name(), g.unfused().calls(), g.unfused().kernels()));
      }
    }
    out.print(notes);
    out.println("MB: forward, the composite's least traffic (inputs read once, outputs written once); backward, the"
        + " arrays the fused gradient launcher reads and writes, each once. fused x: unfused ms / fused ms. GB/s: MB"
        + " over the fused time; % copy: that over the best streaming copy of the same bytes (System.arraycopy, one"
        + " thread or all threads). Backward unfused: the primitives' gradient launchers in reverse order, forward"
        + " temporaries recomputed, shared tensors' gradients summed; max |diff| there is fused against unfused.");
    return ok;
  }

  private static double copyMillis(long bytes, int reps) {
    StreamingCopy copy = new StreamingCopy(bytes);
    return Math.min(Bench.medianMillis(copy::oneThread, reps), Bench.medianMillis(copy::allThreads, reps));
  }

  private static void row(PrintStream out, String name, String pass, String shape, long bytes, String plain,
      double unfused, double fused, double copyMs, String kernels, String diff) {
    double gbps = bytes / (fused * 1e6);
    double copyGbps = bytes / (copyMs * 1e6);
    out.printf(Locale.ROOT, FORMAT, name, pass, shape, String.format(Locale.ROOT, "%.2f", bytes / 1e6), plain,
        ms(unfused), ms(fused), String.format(Locale.ROOT, "%.2f", unfused / fused),
        String.format(Locale.ROOT, "%.2f", gbps), String.format(Locale.ROOT, "%.0f%%", 100 * gbps / copyGbps),
        kernels, diff);
  }

  private static String ms(double v) {
    return String.format(Locale.ROOT, v < 1 ? "%.4f" : "%.2f", v);
  }

  static List<FusionCase> cases(int rows, int cols) {
    return FusionCases.all(rows, cols, 42);
  }
}
