package dev.kiln.bench;

import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * A case's rate over the streaming copy's, timed in pairs: rounds of Kiln calls for about {@link
 * #SIDE_MS} ms, then copies of 16 MB cut over Kiln's pool for about as long, one after the other in
 * this process, and the median of the rounds' ratios. The machines this runs on move their memory
 * between phases within seconds to minutes (the pool's copy took 0.16 to 0.45 ms on one day; timed
 * by JMH beside a case, 0.21 ms in one run and 0.35 in the next), so a copy timed once, minutes away
 * from a case, measured another phase's limit; two timings a tenth of a second apart measure the
 * same one. (Rounds of ten calls a side ran both sides at about two thirds of their speed in JMH:
 * each side's first calls write back the other's dirty lines.)
 */
final class PairedCopy {
  /** Rounds of timings; the medians are reported. */
  static final int ROUNDS = 21;

  /** About how long each side of a round runs, in milliseconds. */
  static final double SIDE_MS = 60;

  /** Seconds of alternated calls before the rounds: the JIT and each launcher's SIMD choice settle. */
  static final double WARM_SECONDS = 3;

  private PairedCopy() {}

  /** The medians of the rounds: Kiln's ms a call, the copy's ms a call, and Kiln's rate over the copy's in percent. */
  record Result(double kilnMs, double copyMs, double percent) {}

  /** Times {@code kase}'s {@code kiln} method ({@code bytes} moved a call) against the copy. */
  static Result measure(Case kase, Method kiln, double bytes) throws Exception {
    Cases.Copy copy = new Cases.Copy();
    double copyBytes = 2.0 * 4 * Cases.Copy.N;
    long warmEnd = System.nanoTime() + (long) (WARM_SECONDS * 1e9);
    long kilnNs = 0;
    long copyNs = 0;
    long pairs = 0;
    while (System.nanoTime() < warmEnd) {
      long t0 = System.nanoTime();
      kiln.invoke(kase);
      long t1 = System.nanoTime();
      copy.copyAllThreads();
      kilnNs += t1 - t0;
      copyNs += System.nanoTime() - t1;
      pairs++;
    }
    int kilnCalls = calls(kilnNs, pairs);
    int copyCalls = calls(copyNs, pairs);
    double[] kilnMs = new double[ROUNDS];
    double[] copyMs = new double[ROUNDS];
    double[] percent = new double[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
      long t0 = System.nanoTime();
      for (int i = 0; i < kilnCalls; i++) {
        kiln.invoke(kase);
      }
      long t1 = System.nanoTime();
      for (int i = 0; i < copyCalls; i++) {
        copy.copyAllThreads();
      }
      long t2 = System.nanoTime();
      kilnMs[r] = (t1 - t0) / (kilnCalls * 1e6);
      copyMs[r] = (t2 - t1) / (copyCalls * 1e6);
      percent[r] = 100 * (bytes / kilnMs[r]) / (copyBytes / copyMs[r]);
    }
    return new Result(median(kilnMs), median(copyMs), median(percent));
  }

  /** Calls that take about {@link #SIDE_MS} at {@code ns} for {@code calls} calls, at least 10. */
  private static int calls(long ns, long calls) {
    double each = ns / (double) Math.max(1, calls);
    return (int) Math.max(10, Math.min(100_000, SIDE_MS * 1e6 / Math.max(1, each)));
  }

  /**
   * {@code java -cp kiln-benchmarks.jar dev.kiln.bench.PairedCopy Case}: the case (a class in {@link
   * Cases}) timed against the copy in this fresh process; prints {@code paired <kiln ms> <copy ms>
   * <percent>}.
   */
  public static void main(String[] args) throws Exception {
    System.setProperty("ai.djl.offline", "true");
    Class<?> c = Class.forName(Cases.class.getName() + "$" + args[0]);
    try (Case k = (Case) c.getDeclaredConstructor().newInstance()) {
      ((Cases.Base) k).setUp();
      Result r = measure(k, c.getMethod("kiln"), k.bytes());
      System.out.printf(java.util.Locale.ROOT, "paired %.6f %.6f %.3f%n", r.kilnMs(), r.copyMs(), r.percent());
    }
    System.exit(0);
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
