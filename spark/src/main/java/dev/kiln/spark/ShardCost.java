package dev.kiln.spark;

import java.util.Locale;
import java.util.Map;

/**
 * Whether splitting a call pays, from the shard plan's per-row counts at the call's sizes: the work
 * ({@code D} rows of {@code rowWork} IR operations) on the driver's cores, against the same work on
 * the cluster's cores plus what splitting adds (a Spark job, a task per part, the split arrays'
 * bytes and the whole arrays' bytes once per part moved out and back). The constants were measured
 * on Spark's local mode on the project's 2-core machine ({@code bash scripts/spark-bench.sh},
 * docs/BENCHMARKS.md); a cluster's network is slower and its cores more. Splitting never pays where
 * the cluster has no more cores than the driver (local mode on the driver's own machine: Kiln's
 * launcher already uses every core); force the decision with {@link KilnSpark.Split} where the model
 * is wrong.
 */
record ShardCost(double workNanos, double movedBytes, double overheadNanos, int driverCores, int clusterCores) {
  /** Nanoseconds per IR operation on one core (generated kernels, scalar and SIMD, measured 0.05-0.09). */
  static final double NANOS_PER_OPERATION = 0.07;
  /** Nanoseconds per byte moved to or from a part (copy, serialisation, the broadcast). */
  static final double NANOS_PER_BYTE = 4.5;
  /** Nanoseconds to run one Spark job (the broadcast, scheduling, collecting). */
  static final double NANOS_PER_JOB = 25e6;
  /** Nanoseconds to start and finish one task. */
  static final double NANOS_PER_TASK = 1e6;

  static ShardCost of(ShardPlan plan, Map<String, Long> sizes, int parts, int driverCores, int clusterCores) {
    double rows = sizes.get(plan.dim());
    double work = rows * plan.rowWork().at(sizes) * NANOS_PER_OPERATION;
    double bytes = rows * plan.rowBytes().at(sizes) + parts * plan.wholeBytes().at(sizes);
    return new ShardCost(work, bytes, NANOS_PER_JOB + parts * NANOS_PER_TASK + bytes * NANOS_PER_BYTE,
        Math.max(1, driverCores), Math.max(1, clusterCores));
  }

  /** The estimated time of one call of the launcher on the driver. */
  double wholeNanos() {
    return workNanos / driverCores;
  }

  /** The estimated time of the split call. */
  double splitNanos() {
    return workNanos / clusterCores + overheadNanos;
  }

  /** Splitting pays when the cluster has more cores and the split call is estimated at most 80% of the whole one. */
  boolean pays() {
    return clusterCores > driverCores && splitNanos() <= 0.8 * wholeNanos();
  }

  String describe() {
    return String.format(Locale.ROOT, "estimated %.1f ms whole on the driver's %d cores, %.1f ms split over %d cores"
        + " (of which %.1f ms to move %.1f MB and run the job)", wholeNanos() / 1e6, driverCores, splitNanos() / 1e6,
        clusterCores, overheadNanos / 1e6, movedBytes / 1e6);
  }
}
