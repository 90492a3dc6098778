package dev.kiln.runtime.cuda;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/** Thread-safe tallies behind {@link LaunchStats}: launches and timed milliseconds per kernel. */
final class LaunchCounter {
  private final LongAdder total = new LongAdder();
  private final ConcurrentHashMap<String, LongAdder> launches = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, DoubleAdder> millis = new ConcurrentHashMap<>();

  /** Counts one launch. */
  void launched(String kernel) {
    total.increment();
    launches.computeIfAbsent(kernel, k -> new LongAdder()).increment();
  }

  /** Adds measured GPU time. */
  void timed(String kernel, double ms) {
    millis.computeIfAbsent(kernel, k -> new DoubleAdder()).add(ms);
  }

  /** The tallies now. */
  LaunchStats snapshot(boolean timing) {
    Map<String, Long> l = new HashMap<>();
    launches.forEach((k, v) -> l.put(k, v.sum()));
    Map<String, Double> m = new HashMap<>();
    millis.forEach((k, v) -> m.put(k, v.sum()));
    return new LaunchStats(total.sum(), l, m, timing);
  }

  /** Back to zero. */
  void reset() {
    total.reset();
    launches.clear();
    millis.clear();
  }
}
