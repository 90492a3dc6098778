package dev.kiln.runtime.cpu;

/**
 * Runs checked double-precision products on a backend: the empty and {@code k == 0} cases, the
 * choice between Java and OpenBLAS by size, and how a batch is spread over threads. {@link
 * FloatProducts} is the same code in float: change both together.
 */
final class DoubleProducts {
  private DoubleProducts() {}

  /** {@code backend} null: Java below {@link Gemm#NATIVE_MIN_WORK}, else the chosen backend. */
  static void run(BlasBackend backend, int batch, boolean transA, boolean transB, int m, int n,
      int k, double[] a, int aOffset, int lda, long strideA, double[] b, int bOffset, int ldb,
      long strideB, double beta, double[] c, int cOffset, int ldc, long strideC) {
    if (batch == 0 || m == 0 || n == 0) {
      return;
    }
    if (k == 0) {
      for (int q = 0; q < batch; q++) {
        scale(beta, c, (int) (cOffset + q * strideC), m, n, ldc);
      }
      return;
    }
    long work = (long) m * n * k;
    BlasBackend on = backend != null ? backend
        : work < Gemm.NATIVE_MIN_WORK ? BlasBackend.JAVA : BlasBackend.chosen();
    if (on == BlasBackend.NATIVE_ON_KILN_POOL && batch >= CpuExecutor.threads() && CpuExecutor.threads() > 1) {
      // whole products on each of Kiln's threads (see FloatProducts)
      CpuExecutor.parallelFor(batch, work, (chunk, lo, hi) -> {
        for (int q = lo; q < hi; q++) {
          NativeGemm.dgemm(transA, transB, m, n, k, a, (int) (aOffset + q * strideA), lda, b,
              (int) (bOffset + q * strideB), ldb, beta, c, (int) (cOffset + q * strideC), ldc, false);
        }
      });
    } else if (on == BlasBackend.NATIVE || on == BlasBackend.NATIVE_ON_KILN_POOL) {
      for (int q = 0; q < batch; q++) {
        NativeGemm.dgemm(transA, transB, m, n, k, a, (int) (aOffset + q * strideA), lda, b,
            (int) (bOffset + q * strideB), ldb, beta, c, (int) (cOffset + q * strideC), ldc,
            on == BlasBackend.NATIVE_ON_KILN_POOL);
      }
    } else if (batch >= CpuExecutor.threads()) {
      CpuExecutor.parallelFor(batch, work, (chunk, lo, hi) -> {
        for (int q = lo; q < hi; q++) {
          java(transA, transB, m, n, k, a, (int) (aOffset + q * strideA), lda, b,
              (int) (bOffset + q * strideB), ldb, beta, c, (int) (cOffset + q * strideC), ldc, false);
        }
      });
    } else {
      for (int q = 0; q < batch; q++) {
        java(transA, transB, m, n, k, a, (int) (aOffset + q * strideA), lda, b,
            (int) (bOffset + q * strideB), ldb, beta, c, (int) (cOffset + q * strideC), ldc, true);
      }
    }
  }

  private static void java(boolean transA, boolean transB, int m, int n, int k, double[] a,
      int aOffset, int lda, double[] b, int bOffset, int ldb, double beta, double[] c, int cOffset,
      int ldc, boolean parallel) {
    scale(beta, c, cOffset, m, n, ldc);
    JavaDgemm.multiplyAdd(transA, transB, m, n, k, a, aOffset, lda, b, bOffset, ldb, c, cOffset,
        ldc, parallel);
  }

  /** {@code C = beta * C}, with {@code beta == 0} writing zeros without reading C. */
  private static void scale(double beta, double[] c, int cOffset, int m, int n, int ldc) {
    if (beta == 1) {
      return;
    }
    for (int i = 0; i < m; i++) {
      int row = cOffset + i * ldc;
      if (beta == 0) {
        java.util.Arrays.fill(c, row, row + n, 0d);
      } else {
        for (int j = row; j < row + n; j++) {
          c[j] *= beta;
        }
      }
    }
  }
}
