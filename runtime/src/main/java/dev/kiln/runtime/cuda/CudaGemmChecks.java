package dev.kiln.runtime.cuda;

import dev.kiln.runtime.Checks;

/**
 * The argument checks of {@link CudaBlas}, done on the host before anything reaches cuBLAS: cuBLAS
 * itself checks only sizes and leading dimensions, and a product that reaches past a device array
 * would read another allocation's memory, or fault asynchronously and leave the CUDA context
 * unusable. The rules and messages are those of the CPU GEMM's checks ({@code
 * dev.kiln.runtime.cpu.GemmChecks}), for device arrays (lengths, offsets and strides in {@code
 * long}); every bound is computed saturating, so no size can wrap into a pass.
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
    nonNegative(name, "batch", batch);
    nonNegative(name, "m", m);
    nonNegative(name, "n", n);
    nonNegative(name, "k", k);
    if (a == null || b == null || c == null) {
      throw new IllegalArgumentException(
          name + ": array " + (a == null ? "a" : b == null ? "b" : "c") + " is null");
    }
    a.checkOpen();
    b.checkOpen();
    c.checkOpen();
    // Stored shapes, row-major: A is m x k (k x m when transposed), B is k x n (n x k), C is m x n.
    Region ra = region(name, "a", batch, transA ? k : m, transA ? m : k, lda, "lda",
        transA ? "m" : "k", aOffset, strideA, a.length());
    Region rb = region(name, "b", batch, transB ? n : k, transB ? k : n, ldb, "ldb",
        transB ? "k" : "n", bOffset, strideB, b.length());
    Region rc = region(name, "c", batch, m, n, ldc, "ldc", "n", cOffset, strideC, c.length());
    if (batch > 1 && m > 0 && n > 0 && !disjointBatch(batch, m, n, ldc, strideC)) {
      throw new IllegalArgumentException(name + ": strideC " + strideC + " makes the " + batch
          + " C matrices (" + m + " x " + n + ", ldc " + ldc + ") overlap; each product needs C"
          + " elements of its own");
    }
    if (c == a && rc.overlaps(ra)) {
      throw new IllegalArgumentException(name + ": c and a are the same array and their elements"
          + " overlap (c " + rc + ", a " + ra + "); write the product to other elements");
    }
    if (c == b && rc.overlaps(rb)) {
      throw new IllegalArgumentException(name + ": c and b are the same array and their elements"
          + " overlap (c " + rc + ", b " + rb + "); write the product to other elements");
    }
  }

  private static void nonNegative(String name, String what, int value) {
    if (value < 0) {
      throw new IllegalArgumentException(
          name + ": " + what + " must not be negative, but was " + value);
    }
  }

  /**
   * The elements {@code [first, last]} that a batch of {@code rows x cols} matrices (stored row
   * after row, {@code ld} apart) reads or writes; empty when no element is touched.
   */
  private static Region region(String name, String array, int batch, int rows, int cols, int ld,
      String ldName, String colsName, long offset, long stride, long length) {
    if (ld < Math.max(1, cols)) {
      throw new IllegalArgumentException(name + ": " + ldName + " must be at least max(1, "
          + colsName + ") = " + Math.max(1, cols) + ", but was " + ld);
    }
    if (offset < 0) {
      throw new IllegalArgumentException(
          name + ": the offset into " + array + " must not be negative, but was " + offset);
    }
    if (stride < 0) {
      throw new IllegalArgumentException(
          name + ": the batch stride of " + array + " must not be negative, but was " + stride);
    }
    if (batch == 0 || rows == 0 || cols == 0) {
      return Region.EMPTY;
    }
    long last = Checks.add(Checks.add(offset, Checks.mul(batch - 1L, stride)),
        (rows - 1L) * ld + cols - 1);
    if (last >= length) {
      throw new IllegalArgumentException(name + ": " + array + " has " + length
          + " elements, but the " + (batch > 1 ? batch + " " : "") + rows + " x " + cols
          + (batch > 1 ? " matrices" : " matrix") + " at offset " + offset + " (" + ldName + " "
          + ld + (batch > 1 ? ", stride " + stride + ") reach" : ") reaches") + " element "
          + (last == Long.MAX_VALUE ? "beyond " + Long.MAX_VALUE : last));
    }
    return new Region(offset, last);
  }

  /**
   * Whether the batch's C matrices share no element: one after another ({@code stride} at least
   * one whole matrix) or interleaved row by row ({@code stride} at least a row, all rows of one
   * index within {@code ldc}).
   */
  private static boolean disjointBatch(int batch, int m, int n, int ldc, long stride) {
    long span = (m - 1L) * ldc + n;
    return stride >= span || (stride >= n && Checks.add(Checks.mul(batch - 1L, stride), n) <= ldc);
  }

  /** The closed range of element indices that a batch touches. */
  private record Region(long first, long last) {
    static final Region EMPTY = new Region(0, -1);

    boolean overlaps(Region other) {
      return first <= last && other.first <= other.last
          && first <= other.last && other.first <= last;
    }

    @Override
    public String toString() {
      return first <= last ? "elements " + first + ".." + last : "no elements";
    }
  }
}
