package dev.kiln.spark;

import java.util.Map;

/**
 * Whether splitting a call pays, from the shard plan's per-row counts at the call's sizes: the work
 * ({@code D} rows of {@code rowWork} IR operations) against what splitting adds, the split arrays'
 * bytes and the whole arrays' bytes once per part moved to the parts and back, and the start of each
 * task. The constants are rough, measured on Spark's local mode on a 2-core machine
 * (docs/BENCHMARKS.md, "Kiln on Spark"): a cluster's network is slower, its cores more; force the
 * decision with {@link KilnSpark.Split} where the model is wrong.
 */
record ShardCost(double workNanos, double movedBytes, double overheadNanos) {
  /** Nanoseconds per IR operation of a generated CPU kernel (a rough mean over scalar and SIMD kernels). */
  static final double NANOS_PER_OPERATION = 0.5;
  /** Nanoseconds per byte moved to or from a part (serialisation and copy in local mode). */
  static final double NANOS_PER_BYTE = 2.0;
  /** Nanoseconds to start and collect one task. */
  static final double NANOS_PER_TASK = 3e6;

  static ShardCost of(ShardPlan plan, Map<String, Long> sizes, int parts) {
    double rows = sizes.get(plan.dim());
    double work = rows * plan.rowWork().at(sizes) * NANOS_PER_OPERATION;
    double bytes = rows * plan.rowBytes().at(sizes) + parts * plan.wholeBytes().at(sizes);
    return new ShardCost(work, bytes, bytes * NANOS_PER_BYTE + parts * NANOS_PER_TASK);
  }

  /** Splitting pays when the work is at least twice what it adds. */
  boolean pays() {
    return workNanos >= 2 * overheadNanos;
  }

  String describe() {
    return String.format(java.util.Locale.ROOT, "estimated work %.1f ms against %.1f ms to move %.1f MB and start the tasks",
        workNanos / 1e6, overheadNanos / 1e6, movedBytes / 1e6);
  }
}
