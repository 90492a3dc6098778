package dev.kiln.sample;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;

/** Prints the timing table, one row as soon as it is measured. */
final class Table {
  private static final String FORMAT = "%-15s %-32s %10s %10s %8s %8s %7s %8s %10s%n";

  private final PrintStream out;

  Table(PrintStream out) {
    this.out = out;
  }

  void header() {
    row("operator", "shape", "plain ms", "kernel ms", "speed-up", "GB/s", "% copy", "GFLOP/s",
        "max |diff|");
  }

  /**
   * An operator's row.
   *
   * @param copyGbps the best streaming-copy rate at the operator's byte count
   */
  void operator(Case c, double plainMs, double kernelMs, double copyGbps, double diff) {
    double gbps = c.bytes() / (kernelMs * 1e6);
    row(c.operator(), c.shape(), millis(plainMs), millis(kernelMs), ratio(plainMs / kernelMs),
        fixed(gbps), percent(gbps / copyGbps),
        c.flops() == 0 ? "-" : fixed(c.flops() / (kernelMs * 1e6)),
        String.format(Locale.ROOT, "%.2e", diff));
  }

  /**
   * The bandwidth reference: one thread in the plain column, all kernel threads in the kernel column,
   * and the better of the two as GB/s.
   */
  void copy(long bytes, double oneThreadMs, double allThreadsMs) {
    double best = Math.min(oneThreadMs, allThreadsMs);
    String size = bytes < 1_000 ? bytes + " B"
        : bytes < 1_000_000 ? String.format(Locale.ROOT, "%.1f kB", bytes / 1e3)
        : String.format(Locale.ROOT, "%.2f MB", bytes / 1e6);
    row("streaming copy", size + ", System.arraycopy",
        millis(oneThreadMs), millis(allThreadsMs), ratio(oneThreadMs / allThreadsMs),
        fixed(bytes / (best * 1e6)), percent(1), "-", "-");
  }

  private void row(Object... cells) {
    out.printf(Locale.ROOT, FORMAT, cells);
  }

  /** Three significant digits, never in exponent form: 0.000712, 0.0439, 3.88, 33.2, 1234. */
  private static String millis(double ms) {
    if (ms >= 100) {
      return String.format(Locale.ROOT, "%.0f", ms);
    }
    return new BigDecimal(ms).round(new MathContext(3)).toPlainString();
  }

  private static String ratio(double r) {
    return String.format(Locale.ROOT, "%.2fx", r);
  }

  private static String fixed(double v) {
    return String.format(Locale.ROOT, v < 10 ? "%.2f" : "%.1f", v);
  }

  private static String percent(double fraction) {
    return String.format(Locale.ROOT, "%.0f%%", 100 * fraction);
  }
}
