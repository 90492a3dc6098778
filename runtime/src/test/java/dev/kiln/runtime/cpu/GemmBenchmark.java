package dev.kiln.runtime.cpu;

import java.util.Random;
import org.bytedeco.javacpp.DoublePointer;
import org.bytedeco.javacpp.FloatPointer;
import org.bytedeco.openblas.global.openblas_nolapack;

/**
 * GFLOP/s of both backends at the shapes (OpenBLAS as chosen: {@code
 * -Dkiln.blas.threading=kiln} for Kiln's pool), beside one OpenBLAS call on off-heap pointers with
 * no staging (what the staging costs, on OpenBLAS's own threads) and on Java arrays (what it
 * saves). Not a test (no
 * timing is asserted anywhere); run by hand after {@code mvn -o test-compile -pl runtime}:
 *
 * <pre>
 * java -cp runtime/target/classes:runtime/target/test-classes:$(deps) \
 *     dev.kiln.runtime.cpu.GemmBenchmark [float|double] [m,n,k ...]
 * </pre>
 *
 * Each figure is the best of several runs after warm-up: the machine is shared, and the best run
 * is the one least disturbed.
 */
public final class GemmBenchmark {
  private GemmBenchmark() {}

  public static void main(String[] args) {
    boolean dbl = args.length > 0 && args[0].equals("double");
    String[] shapes = args.length > 1 ? java.util.Arrays.copyOfRange(args, 1, args.length)
        : new String[] {"512,1024,1024", "2048,2048,2048", "256,2048,768"};
    System.out.println("backend: " + Gemm.backend() + ", " + Runtime.getRuntime().availableProcessors()
        + " processors, " + (dbl ? "double" : "float"));
    for (String shape : shapes) {
      String[] parts = shape.split(",");
      int m = Integer.parseInt(parts[0]);
      int n = Integer.parseInt(parts[1]);
      int k = Integer.parseInt(parts[2]);
      double flops = 2.0 * m * n * k;
      int reps = flops > 1e10 ? 5 : 25;
      System.out.printf("%d x %d x %d: %s%n", m, n, k, dbl ? doubles(m, n, k, flops, reps)
          : floats(m, n, k, flops, reps));
    }
  }

  private static String floats(int m, int n, int k, double flops, int reps) {
    Random random = new Random(1);
    float[] a = new float[m * k];
    float[] b = new float[k * n];
    float[] c = new float[m * n];
    for (int i = 0; i < a.length; i++) {
      a[i] = random.nextFloat() - 0.5f;
    }
    for (int i = 0; i < b.length; i++) {
      b[i] = random.nextFloat() - 0.5f;
    }
    FloatPointer pa = new FloatPointer(a);
    FloatPointer pb = new FloatPointer(b);
    FloatPointer pc = new FloatPointer(c);
    double java = 0;
    double staged = 0;
    double raw = 0;
    double arrays = 0;
    for (int rep = 0; rep < reps + 2; rep++) {
      long t = System.nanoTime();
      Gemm.sgemmOn(BlasBackend.JAVA, 1, false, false, m, n, k, a, 0, k, 0, b, 0, n, 0, 0f, c, 0,
          n, 0);
      java = Math.max(java, flops / (System.nanoTime() - t));
      t = System.nanoTime();
      Gemm.sgemmOn(BlasBackend.chosen(), 1, false, false, m, n, k, a, 0, k, 0, b, 0, n, 0, 0f, c,
          0, n, 0);
      staged = Math.max(staged, flops / (System.nanoTime() - t));
      t = System.nanoTime();
      openblas_nolapack.cblas_sgemm(openblas_nolapack.CblasRowMajor, openblas_nolapack.CblasNoTrans,
          openblas_nolapack.CblasNoTrans, m, n, k, 1f, pa, k, pb, n, 0f, pc, n);
      raw = Math.max(raw, flops / (System.nanoTime() - t));
      t = System.nanoTime();
      openblas_nolapack.cblas_sgemm(openblas_nolapack.CblasRowMajor, openblas_nolapack.CblasNoTrans,
          openblas_nolapack.CblasNoTrans, m, n, k, 1f, a, k, b, n, 0f, c, n);
      arrays = Math.max(arrays, flops / (System.nanoTime() - t));
    }
    return line(java, staged, raw, arrays, flops);
  }

  private static String doubles(int m, int n, int k, double flops, int reps) {
    Random random = new Random(1);
    double[] a = new double[m * k];
    double[] b = new double[k * n];
    double[] c = new double[m * n];
    for (int i = 0; i < a.length; i++) {
      a[i] = random.nextDouble() - 0.5;
    }
    for (int i = 0; i < b.length; i++) {
      b[i] = random.nextDouble() - 0.5;
    }
    DoublePointer pa = new DoublePointer(a);
    DoublePointer pb = new DoublePointer(b);
    DoublePointer pc = new DoublePointer(c);
    double java = 0;
    double staged = 0;
    double raw = 0;
    double arrays = 0;
    for (int rep = 0; rep < reps + 2; rep++) {
      long t = System.nanoTime();
      Gemm.dgemmOn(BlasBackend.JAVA, 1, false, false, m, n, k, a, 0, k, 0, b, 0, n, 0, 0, c, 0, n,
          0);
      java = Math.max(java, flops / (System.nanoTime() - t));
      t = System.nanoTime();
      Gemm.dgemmOn(BlasBackend.chosen(), 1, false, false, m, n, k, a, 0, k, 0, b, 0, n, 0, 0, c, 0,
          n, 0);
      staged = Math.max(staged, flops / (System.nanoTime() - t));
      t = System.nanoTime();
      openblas_nolapack.cblas_dgemm(openblas_nolapack.CblasRowMajor, openblas_nolapack.CblasNoTrans,
          openblas_nolapack.CblasNoTrans, m, n, k, 1, pa, k, pb, n, 0, pc, n);
      raw = Math.max(raw, flops / (System.nanoTime() - t));
      t = System.nanoTime();
      openblas_nolapack.cblas_dgemm(openblas_nolapack.CblasRowMajor, openblas_nolapack.CblasNoTrans,
          openblas_nolapack.CblasNoTrans, m, n, k, 1, a, k, b, n, 0, c, n);
      arrays = Math.max(arrays, flops / (System.nanoTime() - t));
    }
    return line(java, staged, raw, arrays, flops);
  }

  private static String line(double java, double staged, double raw, double arrays, double flops) {
    return String.format("java %.1f, openblas (Gemm, in place or staged as the backend line says) %.1f GFLOP/s; one openblas call on"
        + " off-heap pointers %.1f, on Java arrays %.1f; Gemm - off-heap call %.2f ms", java, staged,
        raw, arrays, (flops / staged - flops / raw) / 1e6);
  }
}
