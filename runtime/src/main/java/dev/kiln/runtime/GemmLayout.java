package dev.kiln.runtime;

/**
 * The argument checks shared by the CPU GEMM ({@code dev.kiln.runtime.cpu.Gemm}) and cuBLAS
 * ({@code dev.kiln.runtime.cuda.CudaBlas}): sizes, leading dimensions, offsets, batch strides,
 * array lengths, and outputs that overlap an input or each other. Both refuse the same calls with
 * the same messages. Every bound is computed saturating in {@code long}, so no size can wrap into a
 * pass.
 */
public final class GemmLayout {
  private GemmLayout() {}

  /** {@code batch}, {@code m}, {@code n}, {@code k} not negative. */
  public static void sizes(String name, int batch, int m, int n, int k) {
    nonNegative(name, "batch", batch);
    nonNegative(name, "m", m);
    nonNegative(name, "n", n);
    nonNegative(name, "k", k);
  }

  /** Refuses a null array, naming the first of {@code a}, {@code b}, {@code c} that is. */
  public static void notNull(String name, Object a, Object b, Object c) {
    if (a == null || b == null || c == null) {
      throw new IllegalArgumentException(
          name + ": array " + (a == null ? "a" : b == null ? "b" : "c") + " is null");
    }
  }

  /**
   * Checks where one call (or a batch of {@code batch} calls, matrix {@code q} at offsets {@code
   * off + q*stride}) reads and writes, row-major: A is m x k (k x m when transposed), B is k x n
   * (n x k), C is m x n. {@code cIsA} and {@code cIsB} say that C is the same array as A or B.
   *
   * @throws IllegalArgumentException naming the call ({@code name}) and the argument
   */
  public static void check(String name, int batch, boolean transA, boolean transB, int m, int n, int k,
      long aOffset, int lda, long strideA, long aLength, long bOffset, int ldb, long strideB, long bLength,
      long cOffset, int ldc, long strideC, long cLength, boolean cIsA, boolean cIsB) {
    Region ra = region(name, "a", batch, transA ? k : m, transA ? m : k, lda, "lda",
        transA ? "m" : "k", aOffset, strideA, aLength);
    Region rb = region(name, "b", batch, transB ? n : k, transB ? k : n, ldb, "ldb",
        transB ? "k" : "n", bOffset, strideB, bLength);
    Region rc = region(name, "c", batch, m, n, ldc, "ldc", "n", cOffset, strideC, cLength);
    if (batch > 1 && m > 0 && n > 0 && !disjointBatch(batch, m, n, ldc, strideC)) {
      throw new IllegalArgumentException(name + ": strideC " + strideC + " makes the " + batch
          + " C matrices (" + m + " x " + n + ", ldc " + ldc + ") overlap; each product needs C"
          + " elements of its own");
    }
    if (cIsA && rc.overlaps(ra)) {
      throw new IllegalArgumentException(name + ": c and a are the same array and their elements"
          + " overlap (c " + rc + ", a " + ra + "); write the product to other elements");
    }
    if (cIsB && rc.overlaps(rb)) {
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
