package dev.kiln.runtime.cuda;

import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A snapshot of a device's kernel launches since it was opened or {@link CudaDevice#resetStats()
 * reset}: {@link CudaDevice#stats()}.
 *
 * <p>Kernels are keyed by qualified name: the generated class and the kernel, such as {@code
 * "dev.kiln.tests.ops.Reductions.sum"}. The lookups {@link #launches(String)} and {@link
 * #millis(String)} also take a kernel's plain name and then add up every class's kernel of that name.
 *
 * @param launches all launches
 * @param launchesByKernel launches per kernel, sorted by name
 * @param millisByKernel GPU time per kernel in milliseconds, measured with CUDA events around each
 *     launch while timing was on ({@code -Dkiln.cuda.timing=true} or {@link
 *     CudaDevice#setTiming(boolean)}); empty when it never was
 * @param timing whether timing is on now
 */
public record LaunchStats(
    long launches, Map<String, Long> launchesByKernel, Map<String, Double> millisByKernel,
    boolean timing) {

  /** Copies the maps into unmodifiable sorted ones. */
  public LaunchStats {
    launchesByKernel = Collections.unmodifiableMap(new TreeMap<>(launchesByKernel));
    millisByKernel = Collections.unmodifiableMap(new TreeMap<>(millisByKernel));
  }

  /** Launches of one kernel, by qualified name or by plain name (then summed over classes). */
  public long launches(String kernel) {
    long n = 0;
    for (Map.Entry<String, Long> e : launchesByKernel.entrySet()) {
      if (matches(e.getKey(), kernel)) {
        n += e.getValue();
      }
    }
    return n;
  }

  /** Timed milliseconds of one kernel, by qualified or plain name; 0 when not timed. */
  public double millis(String kernel) {
    double ms = 0;
    for (Map.Entry<String, Double> e : millisByKernel.entrySet()) {
      if (matches(e.getKey(), kernel)) {
        ms += e.getValue();
      }
    }
    return ms;
  }

  /** Timed milliseconds of all kernels. */
  public double totalMillis() {
    double ms = 0;
    for (double v : millisByKernel.values()) {
      ms += v;
    }
    return ms;
  }

  /** One line per kernel: launches and, when timed, total and mean milliseconds. */
  public String format() {
    StringBuilder b = new StringBuilder();
    b.append(String.format(Locale.ROOT, "%d kernel launches%s%n", launches,
        timing ? ", timing on" : ""));
    for (Map.Entry<String, Long> e : launchesByKernel.entrySet()) {
      Double ms = millisByKernel.get(e.getKey());
      if (ms == null) {
        b.append(String.format(Locale.ROOT, "  %-50s %8d%n", e.getKey(), e.getValue()));
      } else {
        b.append(String.format(Locale.ROOT, "  %-50s %8d %12.3f ms %10.4f ms/launch%n", e.getKey(),
            e.getValue(), ms, ms / e.getValue()));
      }
    }
    return b.toString();
  }

  private static boolean matches(String qualified, String kernel) {
    return qualified.equals(kernel) || qualified.endsWith("." + kernel);
  }
}
