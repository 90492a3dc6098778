package dev.kiln.spark;

import dev.kiln.runtime.Device;
import dev.kiln.runtime.Kiln;
import dev.kiln.runtime.cuda.CudaRuntime;
import java.util.Arrays;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * What {@link CudaExecutorsTest} runs in a child JVM with {@code -Dkiln.device=cuda} on the emulated
 * CUDA driver: operators split over Spark's local mode, each part's launcher on CUDA (the tensor
 * launchers), against one call on CUDA (bit for bit for maps, row kernels and draws; within
 * rounding for reductions and sums) and against the plain Java (within 1e-4). Prints {@code OK} and
 * the kernel launches; exits 1 on a disagreement.
 */
public final class CudaExecutorsRun {
  private CudaExecutorsRun() {}

  private static float[] data(long seed, int n) {
    return SparkTests.data(seed, n);
  }

  private static int failures;

  private static void same(String what, float[] a, float[] b) {
    if (!Arrays.equals(a, b)) {
      failures++;
      System.out.println("DIFFERS " + what);
    }
  }

  private static void close(String what, float[] expected, float[] actual, double tol) {
    for (int i = 0; i < expected.length; i++) {
      if (!(Math.abs(expected[i] - actual[i]) <= tol * Math.max(1, Math.abs(expected[i])))) {
        failures++;
        System.out.println("DIFFERS " + what + " at " + i + ": " + expected[i] + " against " + actual[i]);
        return;
      }
    }
  }

  public static void main(String[] args) {
    if (Kiln.device() != Device.CUDA) {
      System.out.println("NOT ON CUDA: " + Kiln.device());
      System.exit(2);
    }
    JavaSparkContext sc = SparkTests.context("kiln-cuda-executors");
    int b = 37;
    int n = 129;
    try {
      float[] x = data(1, b * n);
      float[] gamma = data(2, n);
      float[] beta = data(3, n);
      float[] plain = new float[b * n];
      ShardOps.softmaxScaled(b, n, x, gamma, beta, plain);
      float[] whole = new float[b * n];
      KilnSpark.run(sc, ShardOps.class, "softmaxScaled", 1, KilnSpark.Split.NEVER, b, n, x, gamma, beta, whole);
      close("softmaxScaled on CUDA against plain Java", plain, whole, 1e-4);
      float[] drops = new float[b * n];
      KilnSpark.run(sc, ShardOps.class, "dropout", 1, KilnSpark.Split.NEVER, b, n, 5, 0, x, drops);
      float[] sums = new float[n];
      KilnSpark.run(sc, ShardOps.class, "columnTotals", 1, KilnSpark.Split.NEVER, b, n, x, sums);
      float[] plainSums = new float[n];
      ShardOps.columnTotals(b, n, x, plainSums);
      close("columnTotals on CUDA against plain Java", plainSums, sums, 1e-4);
      float[] plainDrops = new float[b * n];
      ShardOps.dropout(b, n, 5, 0, x, plainDrops);
      close("dropout on CUDA against plain Java", plainDrops, drops, 1e-5);
      for (int parts : new int[] {1, 2, 5}) {
        float[] split = new float[b * n];
        KilnSpark.run(sc, ShardOps.class, "softmaxScaled", parts, KilnSpark.Split.ALWAYS, b, n, x, gamma, beta, split);
        same("softmaxScaled in " + parts + " parts", whole, split);
        float[] splitDrops = new float[b * n];
        KilnSpark.run(sc, ShardOps.class, "dropout", parts, KilnSpark.Split.ALWAYS, b, n, 5, 0, x, splitDrops);
        same("dropout in " + parts + " parts", drops, splitDrops);
        float[] splitSums = new float[n];
        KilnSpark.run(sc, ShardOps.class, "columnTotals", parts, KilnSpark.Split.ALWAYS, b, n, x, splitSums);
        close("columnTotals in " + parts + " parts", sums, splitSums, 1e-5);
        float[] reduced = new float[n];
        KilnSpark.run(sc, ShardOps.class, "columnSums", parts, KilnSpark.Split.ALWAYS, b, n, x, reduced);
        close("columnSums in " + parts + " parts", sums, reduced, 1e-5);
      }
    } finally {
      sc.stop();
    }
    System.out.println("LAUNCHES " + CudaRuntime.device().stats().launches());
    System.out.println(failures == 0 ? "OK" : failures + " DISAGREEMENTS");
    System.exit(failures == 0 ? 0 : 1);
  }
}
