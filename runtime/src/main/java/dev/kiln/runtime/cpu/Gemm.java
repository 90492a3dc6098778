package dev.kiln.runtime.cpu;

/**
 * Matrix products on the CPU for generated kernels: the leaf that a recognised contraction ({@code
 * acc += a[i, p] * b[p, j]}) becomes, as XLA and Inductor hand theirs to a BLAS.
 *
 * <p>Row-major, BLAS's conventions: {@code C[cOffset + i*ldc + j] = sum_p opA(i,p) * opB(p,j) +
 * beta * C[cOffset + i*ldc + j]} for {@code 0 <= i < m}, {@code 0 <= j < n}, {@code 0 <= p < k},
 * where {@code opA(i,p)} is {@code a[aOffset + i*lda + p]}, or {@code a[aOffset + p*lda + i]}
 * when {@code transA}, and {@code opB(p,j)} is {@code b[bOffset + p*ldb + j]}, or {@code
 * b[bOffset + j*ldb + p]} when {@code transB}. With {@code beta == 0} C is not read (a NaN there is
 * overwritten); with {@code k == 0} C becomes {@code beta * C}.
 *
 * <p>Numerics: the sum runs in another order than a plain loop (blocked, vectorised, threaded),
 * so results agree with {@code for p: acc += a*b} within a bound proportional to {@code
 * k * eps * sum_p |opA(i,p) * opB(p,j)|}, not bit for bit.
 *
 * <p>Backends ({@link #backend()} says which), loaded on the first product of at least {@value
 * #NATIVE_MIN_WORK} multiply-adds: Intel MKL on Intel CPUs under Linux x86_64 when its natives are
 * on the class path (the runtime depends on them; {@link MklLibrary}), else OpenBLAS through
 * JavaCPP; else, or with {@code -Dkiln.blas=java}, or when neither can load (said once, at
 * WARNING, with the fix), a pure-Java blocked GEMM on {@link CpuExecutor}'s pool. {@code
 * -Dkiln.blas=mkl} or {@code openblas} demands that library. Smaller products always run in Java:
 * a native call costs more than it saves.
 *
 * <p>Threads ({@code -Dkiln.blas.threading}, see {@link BlasBackend}): by default every product
 * runs on {@link CpuExecutor}'s pool (cut into blocks, the BLAS single-threaded in each), so Gemm
 * may be called from the caller's thread or from inside a Kiln task, and Kiln's kernels and
 * the BLAS never hold the cores at once. With {@code shared} OpenBLAS divides each product among
 * the calling thread and the JNI shim's native workers, which sleep between products (products
 * from several threads at once run one after another); with {@code own} the BLAS runs on its own
 * threads (all processors, or {@code -Dkiln.blas.threads}). In both, call Gemm from the caller's
 * thread: from inside a {@link CpuExecutor} task the product's jobs share the cores with Kiln's
 * other tasks. Gemm is safe to call from several threads at once.
 */
public final class Gemm {
  /** Products with fewer multiply-adds ({@code m*n*k}) than this run in Java. */
  static final long NATIVE_MIN_WORK = 32_768;

  private Gemm() {}

  /** One single-precision product; see the class comment. */
  public static void sgemm(boolean transA, boolean transB, int m, int n, int k, float[] a,
      int aOffset, int lda, float[] b, int bOffset, int ldb, float beta, float[] c, int cOffset,
      int ldc) {
    GemmChecks.check("Gemm.sgemm", 1, transA, transB, m, n, k, a, aOffset, lda, 0, b, bOffset, ldb,
        0, c, cOffset, ldc, 0);
    FloatProducts.run(null, 1, transA, transB, m, n, k, a, aOffset, lda, 0, b, bOffset, ldb, 0,
        beta, c, cOffset, ldc, 0);
  }

  /**
   * {@code batch} single-precision products, matrix {@code q} at offsets {@code aOffset +
   * q*strideA}, {@code bOffset + q*strideB}, {@code cOffset + q*strideC}. A stride may be 0 for A
   * or B (one matrix shared by the batch); the C matrices must not overlap.
   */
  public static void sgemmBatched(int batch, boolean transA, boolean transB, int m, int n, int k,
      float[] a, int aOffset, int lda, int strideA, float[] b, int bOffset, int ldb, int strideB,
      float beta, float[] c, int cOffset, int ldc, int strideC) {
    GemmChecks.check("Gemm.sgemmBatched", batch, transA, transB, m, n, k, a, aOffset, lda, strideA,
        b, bOffset, ldb, strideB, c, cOffset, ldc, strideC);
    FloatProducts.run(null, batch, transA, transB, m, n, k, a, aOffset, lda, strideA, b, bOffset,
        ldb, strideB, beta, c, cOffset, ldc, strideC);
  }

  /** One double-precision product; see the class comment. */
  public static void dgemm(boolean transA, boolean transB, int m, int n, int k, double[] a,
      int aOffset, int lda, double[] b, int bOffset, int ldb, double beta, double[] c, int cOffset,
      int ldc) {
    GemmChecks.check("Gemm.dgemm", 1, transA, transB, m, n, k, a, aOffset, lda, 0, b, bOffset, ldb,
        0, c, cOffset, ldc, 0);
    DoubleProducts.run(null, 1, transA, transB, m, n, k, a, aOffset, lda, 0, b, bOffset, ldb, 0,
        beta, c, cOffset, ldc, 0);
  }

  /** {@code batch} double-precision products; see {@link #sgemmBatched}. */
  public static void dgemmBatched(int batch, boolean transA, boolean transB, int m, int n, int k,
      double[] a, int aOffset, int lda, int strideA, double[] b, int bOffset, int ldb, int strideB,
      double beta, double[] c, int cOffset, int ldc, int strideC) {
    GemmChecks.check("Gemm.dgemmBatched", batch, transA, transB, m, n, k, a, aOffset, lda, strideA,
        b, bOffset, ldb, strideB, c, cOffset, ldc, strideC);
    DoubleProducts.run(null, batch, transA, transB, m, n, k, a, aOffset, lda, strideA, b, bOffset,
        ldb, strideB, beta, c, cOffset, ldc, strideC);
  }

  /** The test hook: {@link #sgemmBatched} on {@code backend} whatever the product's size. */
  static void sgemmOn(BlasBackend backend, int batch, boolean transA, boolean transB, int m, int n,
      int k, float[] a, int aOffset, int lda, int strideA, float[] b, int bOffset, int ldb,
      int strideB, float beta, float[] c, int cOffset, int ldc, int strideC) {
    GemmChecks.check("Gemm.sgemmBatched", batch, transA, transB, m, n, k, a, aOffset, lda, strideA,
        b, bOffset, ldb, strideB, c, cOffset, ldc, strideC);
    FloatProducts.run(backend, batch, transA, transB, m, n, k, a, aOffset, lda, strideA, b, bOffset,
        ldb, strideB, beta, c, cOffset, ldc, strideC);
  }

  /** The test hook: {@link #dgemmBatched} on {@code backend} whatever the product's size. */
  static void dgemmOn(BlasBackend backend, int batch, boolean transA, boolean transB, int m, int n,
      int k, double[] a, int aOffset, int lda, int strideA, double[] b, int bOffset, int ldb,
      int strideB, double beta, double[] c, int cOffset, int ldc, int strideC) {
    GemmChecks.check("Gemm.dgemmBatched", batch, transA, transB, m, n, k, a, aOffset, lda, strideA,
        b, bOffset, ldb, strideB, c, cOffset, ldc, strideC);
    DoubleProducts.run(backend, batch, transA, transB, m, n, k, a, aOffset, lda, strideA, b,
        bOffset, ldb, strideB, beta, c, cOffset, ldc, strideC);
  }

  /**
   * The backend that products worth a native call run on: {@code "mkl (N threads, Kiln's pool; in
   * place on the Java arrays; reproducible: CBWR auto, strict; <folder>)"}, {@code "openblas (N
   * threads, Kiln's pool; in place on the Java arrays)"}, {@code "openblas (N threads, shared: OpenBLAS divides each
   * product among the caller and Kiln's N-1 native workers; ...)"}, {@code "openblas (N threads,
   * OpenBLAS's own; ...)"} or {@code "java (reason)"}. Chooses (and loads OpenBLAS) if no product
   * did yet.
   *
   * @throws dev.kiln.runtime.KilnException when {@code -Dkiln.blas=mkl} or {@code openblas} and
   *     that library did not load, or {@code -Dkiln.blas} names no backend
   */
  public static String backend() {
    return BlasBackend.description();
  }
}
