package dev.kiln.runtime.cpu;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;

/**
 * OpenBLAS products on the Java arrays themselves, through Kiln's JNI shim ({@code
 * runtime/src/main/native/kiln_blas.c}, built into the jar when the build machine had a C
 * compiler): each call enters JNI critical regions on A, B and C, so OpenBLAS reads and writes the
 * heap arrays in place and nothing is staged off-heap. On the 2-core machine staging cost 15-30%
 * of a product (median of 180 calls, 512x1024x1024: 8.8 ms staged, 7.5 in place; 256x2048x256:
 * 4.9 against 3.4).
 *
 * <p>Not used (and {@link OpenBlasGemm} stages, as before) when the shim is not in the jar, does
 * not load, when the JVM would hand the critical region a copy of the array (HotSpot does not,
 * except under {@code -Xcheck:jni}; a copy of C written back by one thread would overwrite rows
 * another thread multiplies; a probe at load time finds out), or with
 * {@code -Dkiln.blas.arrays=staged}. {@link #state()} says which and why.
 *
 * <p>While a product runs in a critical region, the JVM holds garbage collection back (a thread
 * that needs a collection waits for the product to end): a product of milliseconds, in a kernel
 * launch that allocates nothing, is what this is for. On JDK 17-21 a thread that allocates heavily
 * meanwhile may even fail with {@code OutOfMemoryError: Retried waiting for GCLocker too often}
 * (JDK-8192647, fixed in JDK 22); a program that allocates hard on other threads while products
 * run can use {@code -Dkiln.blas.arrays=staged}.
 */
final class HeapArrayGemm {
  /** {@code staged} forces OpenBLAS's operands through off-heap memory; {@code direct} (default) uses the shim when it loads. */
  static final String PROPERTY = "kiln.blas.arrays";

  /** Whether products run in place, and the addresses of OpenBLAS's routines when they do. */
  record State(boolean direct, String description, long sgemm, long dgemm) {}

  private static volatile State state = new State(false, "not loaded", 0, 0);

  /** How {@link #load} finds OpenBLAS's routines, once the shim is loaded; null before. */
  private static ToLongFunction<String> routines;

  /** What {@link #load} found, which {@link #useInPlace} returns to. */
  private static volatile State loaded = state;

  private HeapArrayGemm() {}

  /** What {@link #load} decided. */
  static State state() {
    return state;
  }

  /** The names under which JavaCPP's presets load OpenBLAS (the preset's build, then the usual). */
  static final List<String> OPENBLAS_LIBRARIES =
      List.of("libopenblas_nolapack.so.0", "libopenblas.so.0");

  /** The name under which {@link MklLibrary} loads Intel MKL's single dynamic library. */
  static final List<String> MKL_LIBRARIES = List.of("libmkl_rt.so.2");

  /**
   * Loads the shim and finds OpenBLAS's {@code cblas_sgemm} and {@code cblas_dgemm} in the
   * library JavaCPP loaded (by its soname; else by {@code javacppLookup}, which gives 0 for a
   * symbol it does not find); returns the state: in place, or staged with the reason.
   */
  static State load(ToLongFunction<String> javacppLookup) {
    return load("OpenBLAS", OPENBLAS_LIBRARIES, javacppLookup);
  }

  /**
   * Loads the shim and finds {@code blas}'s {@code cblas_sgemm} and {@code cblas_dgemm} in the
   * already loaded library with one of these sonames (else by {@code fallback}, which gives 0 for
   * a symbol it does not find); returns the state: in place, or staged with the reason.
   */
  static synchronized State load(String blas, List<String> libraries,
      ToLongFunction<String> fallback) {
    ToLongFunction<String> find = symbol -> {
      for (String library : libraries) {
        long address = lookup(library, symbol);
        if (address != 0) {
          return address;
        }
      }
      return fallback.applyAsLong(symbol);
    };
    state = decide(System.getProperty(PROPERTY), blas + " (" + libraries + ")", find);
    loaded = state;
    if (state.direct()) {
      routines = find;
    }
    return state;
  }

  /**
   * The address of one of the loaded BLAS's routines ({@code MKL_Set_Num_Threads}), 0 when it
   * has none of that name or the shim is not in use.
   */
  static synchronized long routine(String symbol) {
    return routines == null ? 0 : routines.applyAsLong(symbol);
  }

  /**
   * Starts {@code workers} native workers in the shim (once) and makes OpenBLAS run the jobs of
   * each product it divides on the calling thread and them, through its threads callback
   * ({@code openblas_set_threads_callback_function}, OpenBLAS 0.3.28 on), instead of on its own
   * pthreads. The workers sleep between products, where OpenBLAS's own keep spinning for a while
   * after each one and take the cores from the Kiln kernels that follow. Returns null when done,
   * else why not (then nothing changed).
   */
  static synchronized String shareThreads(int workers) {
    if (routines == null) {
      return "the JNI shim is not in use (" + state.description() + ")";
    }
    long setCallback = routines.applyAsLong("openblas_set_threads_callback_function");
    if (setCallback == 0) {
      return "this OpenBLAS has no threads callback (0.3.28 and later have)";
    }
    int status;
    try {
      status = shareThreads(setCallback, workers);
    } catch (UnsatisfiedLinkError e) { // a shim from another build, without this function
      return "the JNI shim does not match this runtime: " + e;
    }
    return status == 0 ? null : status == 3 ? "the shim could not keep itself loaded (dlopen RTLD_NODELETE)"
        : "the shim could not start " + workers + " native workers";
  }

  /**
   * The test hook: products from now on run in place ({@code true}, when {@link #load} found the
   * shim) or staged; returns whether they run in place.
   */
  static synchronized boolean useInPlace(boolean inPlace) {
    state = inPlace ? loaded : staged("the test hook");
    return state.direct();
  }

  /** Why {@code -Dkiln.blas.arrays} has a value it does not take ({@code property}), or null. */
  static String refusal(String property) {
    String wanted = property == null ? "" : property.trim().toLowerCase(Locale.ROOT);
    return wanted.isEmpty() || wanted.equals("direct") || wanted.equals("staged") ? null
        : "-D" + PROPERTY + "=" + property + " is not a way to pass arrays; use direct or staged";
  }

  static State decide(String property, ToLongFunction<String> lookup) {
    return decide(property, "OpenBLAS (" + OPENBLAS_LIBRARIES + ")", lookup);
  }

  /** {@link #decide(String, ToLongFunction)} for the BLAS {@code blas} names ("MKL (sonames)"). */
  static State decide(String property, String blas, ToLongFunction<String> lookup) {
    String refusal = refusal(property);
    if (refusal != null) {
      throw new IllegalArgumentException(refusal);
    }
    if (property != null && property.trim().equalsIgnoreCase("staged")) {
      return staged("-D" + PROPERTY + "=staged");
    }
    String shim = loadShim();
    if (shim != null) {
      return staged(shim);
    }
    long sgemm;
    long dgemm;
    try {
      if (copiesArrays(new float[16])) {
        return staged("this JVM copies arrays in JNI critical regions");
      }
      sgemm = lookup.applyAsLong("cblas_sgemm");
      dgemm = lookup.applyAsLong("cblas_dgemm");
    } catch (UnsatisfiedLinkError e) { // a shim from another build, without these functions
      return staged("the JNI shim does not match this runtime: " + e);
    }
    if (sgemm == 0 || dgemm == 0) {
      return staged("cblas_sgemm or cblas_dgemm was not found in " + blas);
    }
    return new State(true, "in place on the Java arrays", sgemm, dgemm);
  }

  /** Null once the shim is loaded; else why it is not. Loaded at most once a JVM. */
  private static String shimRefusal;

  private static boolean shimTried;

  /**
   * Loads the JNI shim from the jar, the first time only (MKL and then OpenBLAS may both ask):
   * null when it is loaded, else why it is not (the same answer on every call).
   */
  private static synchronized String loadShim() {
    if (!shimTried) {
      shimRefusal = loadShimOnce();
      shimTried = true;
    }
    return shimRefusal;
  }

  private static String loadShimOnce() {
    String resource = resource();
    if (resource == null) {
      return "no JNI shim for " + System.getProperty("os.name") + " " + System.getProperty("os.arch");
    }
    try (InputStream in = HeapArrayGemm.class.getResourceAsStream(resource)) {
      if (in == null) {
        return "the jar has no JNI shim (" + resource.substring(1)
            + ", built only where the build machine has a C compiler)";
      }
      Path file = Files.createTempFile("kiln-blas-", ".so");
      try {
        Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
        System.load(file.toAbsolutePath().toString());
      } finally {
        Files.deleteIfExists(file); // a loaded library needs no file on Linux: none is left behind
      }
    } catch (IOException | UnsatisfiedLinkError | SecurityException e) {
      return "the JNI shim did not load: " + e;
    }
    return null;
  }

  private static State staged(String why) {
    return new State(false, "operands staged off-heap: " + why, 0, 0);
  }

  /** The shim's resource path for this platform, or null where none is built. */
  private static String resource() {
    String platform = linuxPlatform();
    return platform == null ? null : "/dev/kiln/runtime/cpu/native/" + platform + "/libkilnblas.so";
  }

  /** "linux-x86_64" or "linux-arm64" where the JVM runs on one of them (the shim's platforms), else null. */
  static String linuxPlatform() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch", "");
    if (!os.startsWith("linux")) {
      return null;
    }
    return arch.equals("amd64") || arch.equals("x86_64") ? "linux-x86_64"
        : arch.equals("aarch64") ? "linux-arm64" : null;
  }

  /**
   * {@code C = A·B + beta·C} by OpenBLAS at {@code fn} on the arrays in place (row-major, the
   * offsets and leading dimensions checked by the caller).
   */
  static void sgemm(long fn, boolean transA, boolean transB, int m, int n, int k, float[] a,
      int aOffset, int lda, float[] b, int bOffset, int ldb, float beta, float[] c, int cOffset,
      int ldc) {
    check(sgemmInPlace(fn, transA, transB, m, n, k, a, aOffset, lda, b, bOffset, ldb, beta, c, cOffset,
        ldc));
  }

  /** As {@link #sgemm}, in double. */
  static void dgemm(long fn, boolean transA, boolean transB, int m, int n, int k, double[] a,
      int aOffset, int lda, double[] b, int bOffset, int ldb, double beta, double[] c, int cOffset,
      int ldc) {
    check(dgemmInPlace(fn, transA, transB, m, n, k, a, aOffset, lda, b, bOffset, ldb, beta, c, cOffset,
        ldc));
  }

  private static void check(int status) {
    // Status 2 with an exception pending never gets here: the exception is thrown as the native
    // method returns. Any other status means nothing was written: never return as if C were done.
    if (status == 1) {
      // Unreachable on a JVM that passed the probe in load(); refuse rather than risk the rows.
      throw new IllegalStateException("Gemm: the JVM handed a copy of an array to a JNI critical"
          + " region, so OpenBLAS could not multiply in place and nothing was written; run with -D"
          + PROPERTY + "=staged");
    }
    if (status != 0) {
      throw new IllegalStateException("Gemm: the JVM could not enter a JNI critical region on an"
          + " operand (status " + status + "), so nothing was written; run with -D" + PROPERTY
          + "=staged");
    }
  }

  private static native int sgemmInPlace(long fn, boolean transA, boolean transB, int m, int n, int k,
      float[] a, int aOffset, int lda, float[] b, int bOffset, int ldb, float beta, float[] c,
      int cOffset, int ldc);

  private static native int dgemmInPlace(long fn, boolean transA, boolean transB, int m, int n, int k,
      double[] a, int aOffset, int lda, double[] b, int bOffset, int ldb, double beta, double[] c,
      int cOffset, int ldc);

  private static native boolean copiesArrays(float[] probe);

  private static native int shareThreads(long setCallback, int workers);

  private static native long lookup(String library, String symbol);

  /** Calls the routine {@code int f(int)} at {@code fn} (from {@link #routine}); its answer. */
  static native int callInt(long fn, int arg);

  /** Calls the routine {@code void f(int)} at {@code fn} (from {@link #routine}). */
  static native void callVoid(long fn, int arg);
}
