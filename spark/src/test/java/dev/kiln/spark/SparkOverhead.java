package dev.kiln.spark;

import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * What running through Spark's local mode costs against calling the launcher directly, at two sizes
 * of a memory-bound row kernel (softmax) and of a compute-bound one ({@code gaussianSums}, N^2 work a
 * row): the direct call, the split call on one part (Spark's overhead alone: a task, the slices
 * copied and serialised, the rows written back) and on two parts, each the best of a number of runs
 * after warm-up, and what the cost model would decide. {@code bash scripts/spark-bench.sh}; not a
 * test.
 */
public final class SparkOverhead {
  private SparkOverhead() {}

  interface Call {
    void run();
  }

  private static double best(int reps, Call c) {
    for (int i = 0; i < 12; i++) {
      c.run();
    }
    double best = Double.MAX_VALUE;
    for (int i = 0; i < reps; i++) {
      long t0 = System.nanoTime();
      c.run();
      best = Math.min(best, (System.nanoTime() - t0) / 1e6);
    }
    return best;
  }

  private static float[] data(int n) {
    SplittableRandom r = new SplittableRandom(n);
    float[] x = new float[n];
    for (int i = 0; i < n; i++) {
      x[i] = (float) (r.nextDouble() * 4 - 2);
    }
    return x;
  }

  public static void main(String[] args) {
    JavaSparkContext sc = SparkTests.context("kiln-spark-overhead");
    try {
      System.out.printf(Locale.ROOT, "%-14s %-12s %10s %12s %12s %8s  %s%n", "operator", "B x N", "direct ms", "1 part ms",
          "2 parts ms", "2p/dir", "cost model (AUTO, 2 parts)");
      row(sc, "softmax", 256, 1024, 20);
      row(sc, "softmax", 4096, 2048, 10);
      row(sc, "gaussianSums", 8, 1024, 10);
      row(sc, "gaussianSums", 32, 4096, 3);
    } finally {
      sc.stop();
    }
  }

  private static void row(JavaSparkContext sc, String op, int b, int n, int reps) {
    float[] x = data(b * n);
    float[] y = new float[b * n];
    Call direct = op.equals("softmax") ? () -> ShardOpsKernels.softmax(b, n, x, y) : () -> ShardOpsKernels.gaussianSums(b, n, x, y);
    double d = best(reps, direct);
    float[] expected = y.clone();
    double one = best(reps, () -> KilnSpark.run(sc, ShardOps.class, op, 1, KilnSpark.Split.ALWAYS, b, n, x, y));
    double two = best(reps, () -> KilnSpark.run(sc, ShardOps.class, op, 2, KilnSpark.Split.ALWAYS, b, n, x, y));
    if (!Arrays.equals(expected, y)) {
      throw new AssertionError(op + ": the split call's result differs from the direct call's");
    }
    String decision = KilnSpark.run(sc, ShardOps.class, op, 2, KilnSpark.Split.AUTO, b, n, x, y).decision();
    System.out.printf(Locale.ROOT, "%-14s %-12s %10.2f %12.2f %12.2f %8.2f  %s%n", op, b + " x " + n, d, one, two, two / d, decision);
  }
}
