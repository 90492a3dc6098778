package dev.kiln.runtime.cpu;

import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import org.bytedeco.javacpp.DoublePointer;
import org.bytedeco.javacpp.FloatPointer;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.openblas.global.openblas_nolapack;

/**
 * One of {@link Gemm}'s native backends (Intel MKL, {@link MklLibrary}, is the other): OpenBLAS's
 * {@code cblas_sgemm}/{@code cblas_dgemm} through JavaCPP's presets, loaded here, multiplying on
 * the Java arrays in place through Kiln's JNI shim ({@link HeapArrayGemm}, {@link NativeGemm})
 * where it loads, else on operands staged in off-heap memory (this class).
 *
 * <p>Why staging when the shim is not there: handed Java arrays, JavaCPP's JNI copies every array in and out through a fresh
 * {@code malloc} on each call (124 GFLOP/s at 512x1024x1024 on the 2-core machine, against 228
 * with off-heap pointers). Here each calling thread keeps three grow-only off-heap buffers per
 * precision ({@link OffHeapStaging}); A and B are copied in, packed (a leading dimension larger
 * than the row becomes the row length), C is copied in only when {@code beta != 0} and copied out
 * after. The copies are O(mk + kn + mn) against the product's O(mnk).
 *
 * <p>This is the only class that names JavaCPP or OpenBLAS types; {@link BlasBackend} loads it on
 * the first product that needs it, so a program that multiplies no matrices never loads JavaCPP.
 * By default OpenBLAS runs single-threaded in each of {@link CpuExecutor}'s tasks; with {@code
 * -Dkiln.blas.threading=shared} it divides each product among the calling thread and the JNI
 * shim's native workers ({@link HeapArrayGemm#shareThreads}), with {@code openblas} it runs on its
 * own threads ({@link #threads()}). Except on Kiln's pool, {@link Gemm} is best called from the
 * caller's thread, not from inside a {@link CpuExecutor} task (the two pools would share the cores
 * twice over). See {@link BlasBackend} for why Kiln's pool by default.
 */
final class OpenBlasGemm {
  private static final ThreadLocal<OffHeapStaging> STAGING =
      ThreadLocal.withInitial(OffHeapStaging::new);

  private OpenBlasGemm() {}

  /**
   * Loads OpenBLAS's natives (extracting them from the jar into JavaCPP's cache the first time),
   * sets whose threads run its products, and says what it did ({@link Gemm#backend()}'s text, and
   * whether products are cut into blocks on Kiln's pool).
   *
   * <p>Throws whatever loading throws: {@code UnsatisfiedLinkError} without natives for this
   * platform, {@code NoClassDefFoundError} without the jars.
   */
  static BlasBackend.Loaded load(BlasBackend.Threading threading) {
    // Touching the class runs Loader.load() in its static initialiser, which loads the JNI
    // library; OpenBLAS itself loads on the first BLAS call (before it blas_get_num_threads()
    // answers -1), so one 1x1x1 product loads it before its routines are looked up.
    try (FloatPointer one = new FloatPointer(1f, 1f, 0f)) {
      openblas_nolapack.cblas_sgemm(openblas_nolapack.CblasRowMajor, openblas_nolapack.CblasNoTrans,
          openblas_nolapack.CblasNoTrans, 1, 1, 1, 1f, one, 1, new FloatPointer(one).position(1), 1,
          0f, new FloatPointer(one).position(2), 1);
    }
    int before = openblas_nolapack.blas_get_num_threads();
    String arrays = HeapArrayGemm.load(OpenBlasGemm::address).description() + library();
    if (threading == BlasBackend.Threading.SHARED) {
      int threads = CpuExecutor.threads();
      String refusal = "one thread, nothing to divide";
      if (threads >= 2) {
        // the thread count first: a product divided before the callback runs on OpenBLAS's threads
        openblas_nolapack.blas_set_num_threads(threads);
        refusal = HeapArrayGemm.shareThreads(threads - 1);
      }
      if (refusal == null) {
        return new BlasBackend.Loaded("openblas (" + threads + " threads, shared: OpenBLAS divides each"
            + " product among the caller and Kiln's " + (threads - 1) + " native worker"
            + (threads > 2 ? "s" : "") + "; " + arrays + ")", false);
      }
      return onKilnPool(", not shared: " + refusal, arrays);
    }
    if (threading == BlasBackend.Threading.KILN) {
      return onKilnPool("", arrays);
    }
    Integer wanted = threads();
    if (wanted != null) {
      openblas_nolapack.blas_set_num_threads(wanted);
    }
    int threads = openblas_nolapack.blas_get_num_threads();
    return new BlasBackend.Loaded("openblas (" + (threads > 0 ? threads : before) + " threads, OpenBLAS's own; "
        + arrays + ")", false);
  }

  /** OpenBLAS single-threaded, each product cut into blocks on Kiln's pool ({@code why}: "" or why not shared). */
  private static BlasBackend.Loaded onKilnPool(String why, String arrays) {
    openblas_nolapack.blas_set_num_threads(1);
    int threads = CpuExecutor.threads();
    return new BlasBackend.Loaded("openblas (" + threads + " thread" + (threads > 1 ? "s" : "")
        + ", Kiln's pool" + why + "; " + arrays + ")", true);
  }

  /**
   * JavaCPP's presets load another BLAS behind OpenBLAS's API when {@code
   * -Dorg.bytedeco.openblas.load} names one (Intel MKL: {@code mkl_rt}, with {@code
   * org.bytedeco:mkl} and its natives on the class path): then "; through mkl_rt", else nothing.
   */
  private static String library() {
    String library = System.getProperty("org.bytedeco.openblas.load");
    return library == null || library.isBlank() ? "" : "; through " + library.trim();
  }

  /** The address of one of OpenBLAS's exported routines, 0 when it is not found. */
  private static long address(String symbol) {
    Pointer p = Loader.addressof(symbol);
    return p == null ? 0 : p.address();
  }

  /**
   * The thread count to set: {@code -Dkiln.blas.threads}, else the processors Java sees, unless
   * one of OpenBLAS's own environment variables already chose (null then).
   */
  private static Integer threads() {
    if (BlasBackend.threadsGiven()) {
      return BlasBackend.threadsWanted();
    }
    for (String env : new String[] {"OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS"}) {
      String value = System.getenv(env);
      if (value != null && !value.isBlank()) {
        return null;
      }
    }
    return Runtime.getRuntime().availableProcessors();
  }

  /**
   * One product on operands staged in off-heap memory (where the JNI shim is not in use), cut as
   * {@code split} says; see {@link NativeGemm#sgemm}.
   */
  static void sgemmStaged(NativeGemm.Split split, boolean transA, boolean transB, int m, int n,
      int k, float[] a, int aOffset, int lda, float[] b, int bOffset, int ldb, float beta,
      float[] c, int cOffset, int ldc) {
    OffHeapStaging staging = STAGING.get();
    int rowsA = transA ? k : m;
    int colsA = transA ? m : k;
    int rowsB = transB ? n : k;
    int colsB = transB ? k : n;
    FloatPointer pa = staging.floats(0, (long) rowsA * colsA);
    FloatPointer pb = staging.floats(1, (long) rowsB * colsB);
    FloatPointer pc = staging.floats(2, (long) m * n);
    copyIn(a, aOffset, lda, rowsA, colsA, staging.floatBuffer(0));
    copyIn(b, bOffset, ldb, rowsB, colsB, staging.floatBuffer(1));
    if (beta != 0) {
      copyIn(c, cOffset, ldc, m, n, staging.floatBuffer(2));
    }
    split.forEachBlock(m, n, transA, transB, colsA, colsB, n, (rows, cols, ao, bo, co) ->
        openblas_nolapack.cblas_sgemm(openblas_nolapack.CblasRowMajor, op(transA), op(transB),
            rows, cols, k, 1f, at(pa, ao), colsA, at(pb, bo), colsB, beta, at(pc, co), n));
    copyOut(staging.floatBuffer(2), m, n, c, cOffset, ldc);
  }

  /** As {@link #sgemmStaged}, in double. */
  static void dgemmStaged(NativeGemm.Split split, boolean transA, boolean transB, int m, int n,
      int k, double[] a, int aOffset, int lda, double[] b, int bOffset, int ldb, double beta,
      double[] c, int cOffset, int ldc) {
    OffHeapStaging staging = STAGING.get();
    int rowsA = transA ? k : m;
    int colsA = transA ? m : k;
    int rowsB = transB ? n : k;
    int colsB = transB ? k : n;
    DoublePointer pa = staging.doubles(0, (long) rowsA * colsA);
    DoublePointer pb = staging.doubles(1, (long) rowsB * colsB);
    DoublePointer pc = staging.doubles(2, (long) m * n);
    copyIn(a, aOffset, lda, rowsA, colsA, staging.doubleBuffer(0));
    copyIn(b, bOffset, ldb, rowsB, colsB, staging.doubleBuffer(1));
    if (beta != 0) {
      copyIn(c, cOffset, ldc, m, n, staging.doubleBuffer(2));
    }
    split.forEachBlock(m, n, transA, transB, colsA, colsB, n, (rows, cols, ao, bo, co) ->
        openblas_nolapack.cblas_dgemm(openblas_nolapack.CblasRowMajor, op(transA), op(transB),
            rows, cols, k, 1d, at(pa, ao), colsA, at(pb, bo), colsB, beta, at(pc, co), n));
    copyOut(staging.doubleBuffer(2), m, n, c, cOffset, ldc);
  }

  private static int op(boolean trans) {
    return trans ? openblas_nolapack.CblasTrans : openblas_nolapack.CblasNoTrans;
  }

  private static FloatPointer at(FloatPointer base, long offset) {
    return offset == 0 ? base : new FloatPointer(base).position(offset);
  }

  private static DoublePointer at(DoublePointer base, long offset) {
    return offset == 0 ? base : new DoublePointer(base).position(offset);
  }

  /** Packs a {@code rows x cols} matrix stored {@code ld} apart into {@code to} from index 0. */
  private static void copyIn(float[] from, int offset, int ld, int rows, int cols, FloatBuffer to) {
    if (ld == cols) {
      to.put(0, from, offset, rows * cols);
      return;
    }
    for (int r = 0; r < rows; r++) {
      to.put(r * cols, from, offset + r * ld, cols);
    }
  }

  private static void copyOut(FloatBuffer from, int rows, int cols, float[] to, int offset, int ld) {
    if (ld == cols) {
      from.get(0, to, offset, rows * cols);
      return;
    }
    for (int r = 0; r < rows; r++) {
      from.get(r * cols, to, offset + r * ld, cols);
    }
  }

  private static void copyIn(double[] from, int offset, int ld, int rows, int cols,
      DoubleBuffer to) {
    if (ld == cols) {
      to.put(0, from, offset, rows * cols);
      return;
    }
    for (int r = 0; r < rows; r++) {
      to.put(r * cols, from, offset + r * ld, cols);
    }
  }

  private static void copyOut(DoubleBuffer from, int rows, int cols, double[] to, int offset,
      int ld) {
    if (ld == cols) {
      from.get(0, to, offset, rows * cols);
      return;
    }
    for (int r = 0; r < rows; r++) {
      from.get(r * cols, to, offset + r * ld, cols);
    }
  }
}
