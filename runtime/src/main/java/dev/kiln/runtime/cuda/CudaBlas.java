package dev.kiln.runtime.cuda;

import dev.kiln.runtime.KilnException;

/**
 * Matrix products on the GPU for generated device launchers: the leaf that a recognised contraction
 * ({@code acc += a[i, p] * b[p, j]}) becomes, on cuBLAS (through JCuda's JCublas), as {@code
 * dev.kiln.runtime.cpu.Gemm} is on the CPU.
 *
 * <p>Row-major, the CPU Gemm's conventions: {@code C[cOffset + i*ldc + j] = sum_p opA(i,p) *
 * opB(p,j) + beta * C[cOffset + i*ldc + j]} for {@code 0 <= i < m}, {@code 0 <= j < n}, {@code 0
 * <= p < k}, where {@code opA(i,p)} is {@code a[aOffset + i*lda + p]}, or {@code a[aOffset + p*lda
 * + i]} when {@code transA}, and {@code opB(p,j)} is {@code b[bOffset + p*ldb + j]}, or {@code
 * b[bOffset + j*ldb + p]} when {@code transB}. Offsets and strides count elements. With {@code beta
 * == 0} C is not read (NaN there is overwritten); with {@code k == 0} C becomes {@code beta * C}.
 * The batched forms run {@code batch} products, product {@code q} at offsets {@code aOffset +
 * q*strideA}, {@code bOffset + q*strideB}, {@code cOffset + q*strideC}; a stride may be 0 for A or
 * B (one matrix for the whole batch), never for C.
 *
 * <p>Asynchronous, like a kernel launch: the product is enqueued on {@code stream} (null: the
 * device's default stream) in order with the kernels launched there, and the call returns; nothing
 * is copied to or from the host and nothing waits. Errors of the product itself surface at the next
 * synchronising call. Each call counts in {@link CudaDevice#stats()} as a launch named {@code
 * cuBLAS.cublasSgemm} (or {@code cuBLAS.cublasSgemmStridedBatched}, ...) and is timed when timing
 * is on.
 *
 * <p>Arguments are checked on the host first, in {@code long}: every element the product touches
 * must lie in its array, and C must not overlap A, B or itself across the batch; a violation is an
 * {@link IllegalArgumentException} naming the argument, and a closed array an {@link
 * IllegalStateException}. cuBLAS's own errors become {@link KilnException}s with cuBLAS's status
 * name. Products with {@code m}, {@code n} or {@code batch} 0 enqueue nothing.
 *
 * <p>Numerics: cuBLAS sums in its own order (tiled, possibly split over k), so results agree with a
 * plain loop within a bound proportional to {@code k * eps * sum_p |opA(i,p) * opB(p,j)|}, not bit
 * for bit. Loading: JCublas and {@code libcublas.so.12} are loaded on the first call, never before;
 * {@link #available()} says whether they can be.
 */
public final class CudaBlas {
  private CudaBlas() {}

  /** One single-precision product; see the class comment. */
  public static void sgemm(CudaStream stream, boolean transA, boolean transB, int m, int n, int k,
      DeviceFloatArray a, long aOffset, int lda, DeviceFloatArray b, long bOffset, int ldb,
      float beta, DeviceFloatArray c, long cOffset, int ldc) {
    gemm("CudaBlas.sgemm", stream, false, 1, transA, transB, m, n, k, a, aOffset, lda, 0, b,
        bOffset, ldb, 0, beta, c, cOffset, ldc, 0);
  }

  /** {@code batch} single-precision products; see the class comment. */
  public static void sgemmBatched(CudaStream stream, int batch, boolean transA, boolean transB,
      int m, int n, int k, DeviceFloatArray a, long aOffset, int lda, long strideA,
      DeviceFloatArray b, long bOffset, int ldb, long strideB, float beta, DeviceFloatArray c,
      long cOffset, int ldc, long strideC) {
    gemm("CudaBlas.sgemmBatched", stream, false, batch, transA, transB, m, n, k, a, aOffset, lda,
        strideA, b, bOffset, ldb, strideB, beta, c, cOffset, ldc, strideC);
  }

  /** One double-precision product; see the class comment. */
  public static void dgemm(CudaStream stream, boolean transA, boolean transB, int m, int n, int k,
      DeviceDoubleArray a, long aOffset, int lda, DeviceDoubleArray b, long bOffset, int ldb,
      double beta, DeviceDoubleArray c, long cOffset, int ldc) {
    gemm("CudaBlas.dgemm", stream, true, 1, transA, transB, m, n, k, a, aOffset, lda, 0, b,
        bOffset, ldb, 0, beta, c, cOffset, ldc, 0);
  }

  /** {@code batch} double-precision products; see the class comment. */
  public static void dgemmBatched(CudaStream stream, int batch, boolean transA, boolean transB,
      int m, int n, int k, DeviceDoubleArray a, long aOffset, int lda, long strideA,
      DeviceDoubleArray b, long bOffset, int ldb, long strideB, double beta, DeviceDoubleArray c,
      long cOffset, int ldc, long strideC) {
    gemm("CudaBlas.dgemmBatched", stream, true, batch, transA, transB, m, n, k, a, aOffset, lda,
        strideA, b, bOffset, ldb, strideB, beta, c, cOffset, ldc, strideC);
  }

  /**
   * Whether cuBLAS can be used: JCublas and {@code libcublas.so.12} load. Loads them on the first
   * call; false, never an exception, when they cannot.
   */
  public static boolean available() {
    return unavailableReason() == null;
  }

  /** Null when {@link #available()}; else why not, as a sentence. Loads JCublas on the first call. */
  public static String unavailableReason() {
    try {
      return Cublas.unavailableReason();
    } catch (LinkageError e) {
      return Unavailability.describeCublas(e);
    }
  }

  private static void gemm(String call, CudaStream stream, boolean isDouble, int batch,
      boolean transA, boolean transB, int m, int n, int k, DeviceArray a, long aOffset, int lda,
      long strideA, DeviceArray b, long bOffset, int ldb, long strideB, double beta, DeviceArray c,
      long cOffset, int ldc, long strideC) {
    CudaGemmChecks.check(call, batch, transA, transB, m, n, k, a, aOffset, lda, strideA, b, bOffset,
        ldb, strideB, c, cOffset, ldc, strideC);
    CudaStream s = stream == null ? CudaRuntime.device().defaultStream() : stream;
    if (batch == 0 || m == 0 || n == 0) {
      s.handle(); // a closed stream is refused whatever the sizes
      return;
    }
    String reason = unavailableReason();
    if (reason != null) {
      throw new KilnException(call + ": cuBLAS cannot be used: " + reason);
    }
    Cublas.gemm(call, s, isDouble, batch, transA, transB, m, n, k, a, aOffset, lda, strideA, b,
        bOffset, ldb, strideB, beta, c, cOffset, ldc, strideC);
  }
}
