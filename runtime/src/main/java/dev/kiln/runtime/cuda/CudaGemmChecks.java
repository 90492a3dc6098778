package dev.kiln.runtime.cuda;

import dev.kiln.runtime.GemmLayout;

/**
 * The argument checks of {@link CudaBlas}, done on the host before anything reaches cuBLAS: cuBLAS
 * itself checks only sizes and leading dimensions, and a product that reaches past a device array
 * would read another allocation's memory, or fault asynchronously and leave the CUDA context
 * unusable. The rules and messages are the CPU GEMM's ({@link GemmLayout}), for device arrays.
 */
final class CudaGemmChecks {
  private CudaGemmChecks() {}

  /**
   * Checks one call (or a batch of {@code batch} calls, matrix {@code q} at offsets {@code off +
   * q*stride}).
   *
   * @throws IllegalArgumentException naming the call ({@code name}) and the argument
   * @throws IllegalStateException when an array is closed
   */
  static void check(String name, int batch, boolean transA, boolean transB, int m, int n, int k,
      DeviceArray a, long aOffset, int lda, long strideA, DeviceArray b, long bOffset, int ldb,
      long strideB, DeviceArray c, long cOffset, int ldc, long strideC) {
    GemmLayout.sizes(name, batch, m, n, k);
    GemmLayout.notNull(name, a, b, c);
    a.checkOpen();
    b.checkOpen();
    c.checkOpen();
    GemmLayout.check(name, batch, transA, transB, m, n, k, aOffset, lda, strideA, a.length(), bOffset, ldb, strideB,
        b.length(), cOffset, ldc, strideC, c.length(), c == a, c == b);
  }
}
