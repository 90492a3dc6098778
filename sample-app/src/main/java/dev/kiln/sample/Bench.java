package dev.kiln.sample;

import java.util.Arrays;

/** Times a piece of work: JIT warm-up first, then the median of repeated samples. */
final class Bench {
  private static final long WARMUP_NANOS = 200_000_000L;
  /** Slow work still runs this often before timing: the JIT compiles long loops on their first run. */
  private static final int WARMUP_MIN_CALLS = 2;
  /** A sample repeats the work until it lasts about this long, so short operators time well. */
  private static final long SAMPLE_NANOS = 5_000_000L;

  private Bench() {}

  /** Milliseconds per call: the median over {@code reps} samples, taken after warm-up. */
  static double medianMillis(Runnable work, int reps) {
    long warmupEnd = System.nanoTime() + WARMUP_NANOS;
    int calls = 0;
    long lastCall;
    do {
      long start = System.nanoTime();
      work.run();
      lastCall = System.nanoTime() - start;
      calls++;
    } while (calls < WARMUP_MIN_CALLS || System.nanoTime() < warmupEnd);
    int callsPerSample = (int) Math.min(1_000_000, Math.max(1, SAMPLE_NANOS / Math.max(1, lastCall)));

    double[] millis = new double[reps];
    for (int r = 0; r < reps; r++) {
      long t0 = System.nanoTime();
      for (int i = 0; i < callsPerSample; i++) {
        work.run();
      }
      millis[r] = (System.nanoTime() - t0) / 1e6 / callsPerSample;
    }
    Arrays.sort(millis);
    int mid = reps / 2;
    return reps % 2 == 1 ? millis[mid] : (millis[mid - 1] + millis[mid]) / 2;
  }
}
