package dev.kiln.runtime.cuda;

import dev.kiln.runtime.KilnException;
import java.util.concurrent.ConcurrentHashMap;
import jcuda.CudaException;
import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUevent;
import jcuda.driver.CUstream;
import jcuda.jcublas.JCublas2;
import jcuda.jcublas.cublasHandle;
import jcuda.jcublas.cublasOperation;
import jcuda.jcublas.cublasStatus;
import jcuda.runtime.cudaStream_t;

/**
 * The only class that touches JCublas, so that nothing loads it (nor {@code libcublas.so.12}) before
 * the first {@link CudaBlas} call: a CPU-only user, or a GPU user who multiplies no matrices, never
 * does. It keeps one cuBLAS handle per device (Kiln uses each device's primary context, which is the
 * context cuBLAS binds to), made on first use and kept for the life of the JVM, as the device keeps its
 * kernel modules. Each call sets the handle's stream and enqueues the product under the handle's lock
 * (a handle's stream is shared state), then returns: no host copy, no synchronisation.
 *
 * <p>Kiln's matrices are row-major and cuBLAS's column-major. A row-major {@code rows x cols} matrix
 * with leading dimension {@code ld} is, read column-major, its transpose with the same {@code ld};
 * so {@code C = op(A) op(B)} row-major is {@code C^T = op(B)^T op(A)^T} column-major: cuBLAS gets B
 * as its first operand and A as its second, with m and n swapped and the same transpose flags.
 */
final class Cublas {
  /** Null when JCublas loaded; else why not. Loaded once, on first use of this class. */
  private static final String UNAVAILABLE = load();

  private static final ConcurrentHashMap<CudaDevice, cublasHandle> HANDLES = new ConcurrentHashMap<>();

  private Cublas() {}

  private static String load() {
    try {
      JCublas2.initialize();
      return null;
    } catch (LinkageError | RuntimeException e) {
      return Unavailability.describeCublas(e);
    }
  }

  /** Null when cuBLAS can be used, else why not. */
  static String unavailableReason() {
    return UNAVAILABLE;
  }

  /**
   * Enqueues {@code batch} row-major products on {@code stream}; the arguments are checked,
   * {@code m}, {@code n} and {@code batch} are positive, and {@link #unavailableReason()} is null.
   *
   * @param call the public method's name, for messages: {@code "CudaBlas.sgemm"}
   */
  static void gemm(String call, CudaStream stream, boolean isDouble, int batch, boolean transA,
      boolean transB, int m, int n, int k, DeviceArray a, long aOffset, int lda, long strideA,
      DeviceArray b, long bOffset, int ldb, long strideB, double beta, DeviceArray c, long cOffset,
      int ldc, long strideC) {
    CudaDevice device = stream.device();
    CUstream streamHandle = stream.handle();
    int bytes = isDouble ? 8 : 4;
    // column-major: C^T (n x m) = op(B)^T (n x k) * op(A)^T (k x m)
    int opFirst = transB ? cublasOperation.CUBLAS_OP_T : cublasOperation.CUBLAS_OP_N;
    int opSecond = transA ? cublasOperation.CUBLAS_OP_T : cublasOperation.CUBLAS_OP_N;
    Pointer result = at(c, cOffset, bytes);
    // with k = 0 cuBLAS reads neither operand; C's pointer stands in for arrays that may be empty
    Pointer first = k == 0 ? result : at(b, bOffset, bytes);
    Pointer second = k == 0 ? result : at(a, aOffset, bytes);
    Pointer one = isDouble ? Pointer.to(new double[] {1}) : Pointer.to(new float[] {1});
    Pointer betaHost = isDouble ? Pointer.to(new double[] {beta}) : Pointer.to(new float[] {(float) beta});
    String name = "cublas" + (isDouble ? "D" : "S") + "gemm" + (batch > 1 ? "StridedBatched" : "");
    String what = "could not enqueue " + name + " (" + describe(batch, transA, transB, m, n, k) + ") for " + stream;
    cublasHandle handle = handle(device, call);
    device.makeCurrent();
    KernelTimer timer = device.timing() ? device.timer() : null;
    int status;
    synchronized (handle) {
      CUevent start = null;
      try {
        start = timer == null ? null : timer.begin(streamHandle);
        status = JCublas2.cublasSetStream(handle, new cudaStream_t(streamHandle));
        if (status == cublasStatus.CUBLAS_STATUS_SUCCESS) {
          status = run(handle, isDouble, batch, opFirst, opSecond, n, m, k, one, first, ldb, strideB,
              second, lda, strideA, betaHost, result, ldc, strideC);
        }
        if (start != null) {
          if (status == cublasStatus.CUBLAS_STATUS_SUCCESS) {
            timer.end("cuBLAS." + name, start, streamHandle);
          } else {
            timer.abandon(start);
          }
        }
      } catch (CudaException e) {
        if (start != null) {
          timer.abandon(start);
        }
        throw failure(device, call, what, CudaErrors.errorName(e), e);
      }
    }
    if (status != cublasStatus.CUBLAS_STATUS_SUCCESS) {
      throw failure(device, call, what, cublasStatus.stringFor(status), null);
    }
    device.launched("cuBLAS." + name);
  }

  private static int run(cublasHandle h, boolean isDouble, int batch, int opA, int opB, int m, int n,
      int k, Pointer alpha, Pointer a, int lda, long strideA, Pointer b, int ldb, long strideB,
      Pointer beta, Pointer c, int ldc, long strideC) {
    if (batch == 1) {
      return isDouble
          ? JCublas2.cublasDgemm(h, opA, opB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
          : JCublas2.cublasSgemm(h, opA, opB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    }
    return isDouble
        ? JCublas2.cublasDgemmStridedBatched(h, opA, opB, m, n, k, alpha, a, lda, strideA, b, ldb,
            strideB, beta, c, ldc, strideC, batch)
        : JCublas2.cublasSgemmStridedBatched(h, opA, opB, m, n, k, alpha, a, lda, strideA, b, ldb,
            strideB, beta, c, ldc, strideC, batch);
  }

  /** The device's handle, created on first use in its primary context. */
  private static cublasHandle handle(CudaDevice device, String call) {
    cublasHandle h = HANDLES.get(device);
    if (h != null) {
      return h;
    }
    return HANDLES.computeIfAbsent(device, d -> {
      d.makeCurrent();
      cublasHandle created = new cublasHandle();
      int status;
      try {
        status = JCublas2.cublasCreate(created);
      } catch (CudaException e) {
        throw failure(d, call, "could not create a cuBLAS handle", CudaErrors.errorName(e), e);
      }
      if (status != cublasStatus.CUBLAS_STATUS_SUCCESS) {
        throw failure(d, call, "could not create a cuBLAS handle", cublasStatus.stringFor(status), null);
      }
      return created;
    });
  }

  /** The device pointer {@code offset} elements of {@code bytes} bytes into the array. */
  private static Pointer at(DeviceArray array, long offset, int bytes) {
    CUdeviceptr p = array.pointer();
    return offset == 0 ? p : p.withByteOffset(offset * bytes);
  }

  private static String describe(int batch, boolean transA, boolean transB, int m, int n, int k) {
    return (batch > 1 ? "batch " + batch + ", " : "") + "m " + m + ", n " + n + ", k " + k
        + (transA ? ", A transposed" : "") + (transB ? ", B transposed" : "");
  }

  private static KilnException failure(CudaDevice device, String call, String what, String status,
      Throwable cause) {
    String message = call + ": " + CudaErrors.message(what, device.description(), status, device.lastKernel());
    if (status.equals("CUBLAS_STATUS_EXECUTION_FAILED")) {
      message += "; cuBLAS could not launch its kernel, which happens when an earlier kernel left the CUDA"
          + " context failed (restart the JVM)";
    }
    return new KilnException(message, cause);
  }
}
