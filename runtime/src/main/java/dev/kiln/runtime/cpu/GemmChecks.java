package dev.kiln.runtime.cpu;

import dev.kiln.runtime.GemmLayout;

/**
 * The argument checks of {@link Gemm}, done before any backend runs so that OpenBLAS never reads
 * outside an array and both backends refuse the same calls with the same message: {@link
 * GemmLayout}'s, which cuBLAS's checks share, for Java arrays.
 */
final class GemmChecks {
  private GemmChecks() {}

  /**
   * Checks one call (or a batch of {@code batch} calls, matrix {@code q} at offsets {@code off +
   * q*stride}); {@code a}, {@code b}, {@code c} are {@code float[]} or {@code double[]}.
   *
   * @throws IllegalArgumentException naming the call ({@code name}) and the argument
   */
  static void check(String name, int batch, boolean transA, boolean transB, int m, int n, int k,
      Object a, int aOffset, int lda, long strideA, Object b, int bOffset, int ldb, long strideB,
      Object c, int cOffset, int ldc, long strideC) {
    GemmLayout.sizes(name, batch, m, n, k);
    GemmLayout.notNull(name, a, b, c);
    GemmLayout.check(name, batch, transA, transB, m, n, k, aOffset, lda, strideA, length(a), bOffset, ldb, strideB,
        length(b), cOffset, ldc, strideC, length(c), c == a, c == b);
  }

  private static int length(Object array) {
    if (array instanceof float[]) {
      return ((float[]) array).length;
    }
    return ((double[]) array).length;
  }
}
