package dev.kiln.runtime.cpu;

/**
 * One product on the native BLAS that {@link BlasBackend} loaded (Intel MKL or OpenBLAS): on the
 * Java arrays in place through Kiln's JNI shim ({@link HeapArrayGemm}) where it is in use, else
 * on operands that {@link OpenBlasGemm} stages off-heap (OpenBLAS only: MKL is used only in
 * place). On Kiln's pool the product is cut into blocks of C that {@link CpuExecutor}'s tasks
 * multiply at once, the BLAS single-threaded in each; else one call, which the BLAS divides among
 * its own threads.
 *
 * <p>This class names no JavaCPP type: a program on MKL never loads JavaCPP's OpenBLAS classes.
 */
final class NativeGemm {
  private NativeGemm() {}

  /**
   * One checked product with every size positive; see {@link Gemm#sgemm}. {@code onKilnPool}: cut
   * into blocks that {@link CpuExecutor}'s tasks multiply at once (the BLAS single-threaded).
   */
  static void sgemm(boolean transA, boolean transB, int m, int n, int k, float[] a, int aOffset,
      int lda, float[] b, int bOffset, int ldb, float beta, float[] c, int cOffset, int ldc,
      boolean onKilnPool) {
    Split split = Split.of(onKilnPool, m, n, k);
    HeapArrayGemm.State direct = HeapArrayGemm.state();
    if (direct.direct()) {
      long fn = direct.sgemm();
      split.forEachBlock(m, n, transA, transB, lda, ldb, ldc, (rows, cols, ao, bo, co) ->
          HeapArrayGemm.sgemm(fn, transA, transB, rows, cols, k, a, aOffset + (int) ao, lda,
              b, bOffset + (int) bo, ldb, beta, c, cOffset + (int) co, ldc));
      return;
    }
    OpenBlasGemm.sgemmStaged(split, transA, transB, m, n, k, a, aOffset, lda, b, bOffset, ldb, beta,
        c, cOffset, ldc);
  }

  /** As {@link #sgemm}, in double. */
  static void dgemm(boolean transA, boolean transB, int m, int n, int k, double[] a, int aOffset,
      int lda, double[] b, int bOffset, int ldb, double beta, double[] c, int cOffset, int ldc,
      boolean onKilnPool) {
    Split split = Split.of(onKilnPool, m, n, k);
    HeapArrayGemm.State direct = HeapArrayGemm.state();
    if (direct.direct()) {
      long fn = direct.dgemm();
      split.forEachBlock(m, n, transA, transB, lda, ldb, ldc, (rows, cols, ao, bo, co) ->
          HeapArrayGemm.dgemm(fn, transA, transB, rows, cols, k, a, aOffset + (int) ao, lda,
              b, bOffset + (int) bo, ldb, beta, c, cOffset + (int) co, ldc));
      return;
    }
    OpenBlasGemm.dgemmStaged(split, transA, transB, m, n, k, a, aOffset, lda, b, bOffset, ldb, beta,
        c, cOffset, ldc);
  }

  /** One block of a product: C's rows and columns in it, and its offsets into A, B and C. */
  interface Block {
    void multiply(int rows, int cols, long aOffset, long bOffset, long cOffset);
  }

  /**
   * How a product is cut for Kiln's pool: into {@code parts} blocks of C's rows (of its columns
   * when C is wider than tall), a single part on the BLAS's own threads. Offsets are from each
   * matrix's first element, for the leading dimension given (the packed row length when staged).
   */
  record Split(int parts, boolean byRows) {
    static Split of(boolean onKilnPool, int m, int n, int k) {
      boolean byRows = m >= n;
      if (!onKilnPool) {
        return new Split(1, byRows);
      }
      int extent = byRows ? m : n;
      long work = (long) (byRows ? n : m) * k;
      return new Split(Math.min(CpuExecutor.threads(), CpuExecutor.chunks(extent, work)), byRows);
    }

    /**
     * Multiplies the product's blocks on Kiln's pool (one block on the BLAS's own threads): {@code
     * block} gets each block's rows and columns of C and its offsets into A, B and C for matrices
     * stored with these leading dimensions.
     */
    void forEachBlock(int m, int n, boolean transA, boolean transB, int lda, int ldb, int ldc,
        Block block) {
      CpuExecutor.forEachChunk(byRows ? m : n, parts, (part, lo, hi) -> block.multiply(
          byRows ? hi - lo : m, byRows ? n : hi - lo, aOffset(transA, lo, lda),
          bOffset(transB, lo, ldb), cOffset(lo, ldc)));
    }

    long aOffset(boolean transA, int lo, int lda) {
      return byRows ? (transA ? lo : (long) lo * lda) : 0;
    }

    long bOffset(boolean transB, int lo, int ldb) {
      return byRows ? 0 : (transB ? (long) lo * ldb : lo);
    }

    long cOffset(int lo, int ldc) {
      return byRows ? (long) lo * ldc : lo;
    }
  }
}
