package dev.kiln.runtime.cpu;

import dev.kiln.runtime.KilnException;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Which backend {@link Gemm} runs products on, chosen once, on the first product large enough to
 * want a native BLAS (so that no native library is loaded by a program that does not need it).
 *
 * <p>Without {@code -Dkiln.blas} (or with {@code auto}): Intel MKL where it is offered (its
 * natives on the class path, Linux x86_64, an Intel CPU: {@link MklLibrary}), else OpenBLAS, else
 * the pure-Java kernels; each that is offered and fails to load is said once, at WARNING, with the
 * reason and the fix: a slow fallback is never silent. {@code -Dkiln.blas=mkl} or {@code openblas}
 * demands that library and fails, saying why, when it cannot load; {@code java} picks the Java
 * kernels.
 *
 * <p>{@code -Dkiln.blas.threading} says whose threads run a native product: {@code kiln} (the
 * default: the BLAS single-threaded, the product cut into blocks of rows or columns that {@link
 * CpuExecutor}'s tasks multiply at once), {@code shared} (OpenBLAS only: it divides each product
 * among as many jobs as {@link CpuExecutor} has threads, run by the calling thread and native
 * workers of Kiln's JNI shim, which sleep between products; through OpenBLAS's threads callback,
 * {@link HeapArrayGemm#shareThreads}; where the shim or the callback is missing, or on MKL, it
 * falls back to {@code kiln}, saying why) or {@code own} (the BLAS's own pool, all processors or
 * {@code -Dkiln.blas.threads}; {@code openblas} is its older name).
 *
 * <p>Measured on the 2-core machine (2026-11-28, OpenBLAS). OpenBLAS divides a large product somewhat better
 * than blocks do: 512x1024x1024 took 7.1, 7.1 and 6.5 ms {@code shared} (medians of 60 calls,
 * three alternating runs) against 9.1, 8.2 and 7.5 on Kiln's blocks, but 6.4 and 7.9 against 6.5
 * and 6.7 in two more; with a short inner size (256x2048x256 to 768x2048x256) about the same. Small
 * products lose: the sample's training step (products of about 3 million multiply-adds) took
 * 10.1-12.7 ms a step {@code shared} and 10.5-14.7 on OpenBLAS's own threads against 7.4-11.7
 * (mostly 8.3-9.7) on Kiln's blocks. Hence {@code kiln} by default. OpenBLAS's own idle workers keep spinning after
 * each product, so Kiln kernels run just after it lose part of the machine (a two-thread pass over
 * 16 MB right after a product: 3.8-4.5 ms after OpenBLAS's own threads, 2.2-2.8 after the shim's, mostly
 * 2.2-2.5 after Kiln's blocks); the shim's workers watch for a next product for 50 microseconds, then sleep.
 * On MKL (2026-11-29) its own threads and Kiln's blocks measured the same within the machine's
 * noise in the side-by-side benchmark (Dense 4.9 against 5.3 ms, DenseLarge 75 against 65,
 * LstmStep 4.6 against 4.6, LstmStepTrain 13.6 against 14.5).
 */
enum BlasBackend {
  JAVA,
  /**
   * One native call a product, which the BLAS divides among its threads: MKL's or OpenBLAS's own
   * ({@code -Dkiln.blas.threading=own}), or the shim's sleeping workers (OpenBLAS, {@code shared}).
   */
  NATIVE,
  /** The native BLAS single-threaded, one call per {@link CpuExecutor} task (the default, {@code kiln}). */
  NATIVE_ON_KILN_POOL;

  /** The system property that forces a backend. */
  static final String PROPERTY = "kiln.blas";

  /** The system property that sets the thread count of the BLAS's own pool (default: the processors Java sees). */
  static final String THREADS_PROPERTY = "kiln.blas.threads";

  /** The system property that says whose threads run a native product: kiln (default), shared or own. */
  static final String THREADING_PROPERTY = "kiln.blas.threading";

  private static final System.Logger LOG = System.getLogger(Gemm.class.getName());

  /** What was chosen: a backend with its description, or the failure of a forced native BLAS. */
  record Choice(BlasBackend backend, String description, KilnException failure) {}

  /** The values of {@code -Dkiln.blas.threading}. */
  enum Threading {
    /** Blocks of each product on Kiln's pool, the BLAS single-threaded in each (the default). */
    KILN,
    /** OpenBLAS divides each product among the caller and the shim's sleeping workers. */
    SHARED,
    /** The BLAS's own pool ({@code own}, or {@code openblas} as before MKL). */
    OWN
  }

  /** Whether {@code -Dkiln.blas.threads} is set. */
  static boolean threadsGiven() {
    String text = System.getProperty(THREADS_PROPERTY);
    return text != null && !text.isBlank();
  }

  /**
   * The threads the BLAS's own pool gets: {@code -Dkiln.blas.threads}, else the processors Java
   * sees.
   *
   * @throws IllegalArgumentException when the property is not a positive integer
   */
  static int threadsWanted() {
    if (!threadsGiven()) {
      return Runtime.getRuntime().availableProcessors();
    }
    String text = System.getProperty(THREADS_PROPERTY);
    try {
      int value = Integer.parseInt(text.trim());
      if (value >= 1) {
        return value;
      }
    } catch (NumberFormatException e) {
      // fall through to the message
    }
    throw new IllegalArgumentException(
        "-D" + THREADS_PROPERTY + "=" + text + " must be a positive integer");
  }

  /** What loading a native BLAS did: its description, and whether products are cut into blocks on Kiln's pool. */
  record Loaded(String description, boolean onKilnPool) {
    /** The native backend that runs products as loaded. */
    BlasBackend nativeBackend() {
      return onKilnPool ? NATIVE_ON_KILN_POOL : NATIVE;
    }
  }

  /**
   * Loads one native BLAS for a threading: null when it is not offered here (MKL: its natives are
   * not on the class path, or the CPU is not Intel's); throws when it is offered and failed.
   */
  interface Library {
    /** Loads it ({@code forced}: {@code -Dkiln.blas} names it), or answers null where not offered. */
    Loaded load(Threading threading, boolean forced) throws Exception;
  }

  private static volatile Choice choice;

  /**
   * The backend for products worth a native call.
   *
   * @throws KilnException when the property names no backend, or names mkl or openblas and it did
   *     not load (on every call, with the same message)
   */
  static BlasBackend chosen() {
    Choice c = choice();
    if (c.failure != null) {
      throw new KilnException(c.failure.getMessage(), c.failure.getCause());
    }
    return c.backend;
  }

  /**
   * "mkl (N threads, Kiln's pool; ...)", "openblas (N threads, shared: ...; ...)", "openblas (N
   * threads, Kiln's pool...; ...)", "openblas (N threads, OpenBLAS's own; ...)" or "java (reason)";
   * chooses the backend if none was chosen yet.
   */
  static String description() {
    chosen();
    return choice.description;
  }

  private static Choice choice() {
    Choice c = choice;
    if (c == null) {
      synchronized (BlasBackend.class) {
        c = choice;
        if (c == null) {
          // lambdas, not OpenBlasGemm::load: the classes must first be resolved inside the try
          String arrays = HeapArrayGemm.refusal(System.getProperty(HeapArrayGemm.PROPERTY));
          c = arrays != null ? new Choice(null, null, new KilnException(arrays))
              : choose(System.getProperty(PROPERTY), System.getProperty(THREADING_PROPERTY),
                  (threading, forced) -> MklLibrary.load(threading, forced),
                  threading -> OpenBlasGemm.load(threading));
          choice = c;
        }
      }
    }
    return c;
  }

  /** {@link #choose(String, String, Library, Function)} where MKL is not offered. */
  static Choice choose(String forced, String threading, Function<Threading, Loaded> openBlas) {
    return choose(forced, threading, (t, f) -> null, openBlas);
  }

  /**
   * The choice for the properties' values (null when not set): {@code auto} (the default) takes
   * MKL where {@code mkl} offers it, else OpenBLAS ({@code openBlas}), else Java, with a warning
   * for each that was offered and failed; {@code mkl} and {@code openblas} demand theirs.
   */
  static Choice choose(String forced, String threading, Library mkl,
      Function<Threading, Loaded> openBlas) {
    String name = forced == null ? "" : forced.trim().toLowerCase(Locale.ROOT);
    String pool = threading == null ? "" : threading.trim().toLowerCase(Locale.ROOT);
    Threading threads;
    switch (pool) {
      case "":
      case "kiln":
        threads = Threading.KILN;
        break;
      case "shared":
        threads = Threading.SHARED;
        break;
      case "own":
      case "openblas":
        threads = Threading.OWN;
        break;
      default:
        return new Choice(null, null, new KilnException("-D" + THREADING_PROPERTY + "=" + threading
            + " is not a way to run the BLAS's threads; use kiln (the default: blocks of each product"
            + " on Kiln's pool), shared (OpenBLAS divides each product among the caller and Kiln's"
            + " sleeping native workers) or own (the BLAS's own threads)"));
    }
    switch (name) {
      case "java":
        return new Choice(JAVA, "java (-D" + PROPERTY + "=java)", null);
      case "mkl":
        try {
          Loaded loaded = mkl.load(threads, true);
          if (loaded == null) {
            return new Choice(null, null, new KilnException("-D" + PROPERTY + "=mkl was given, but"
                + " MKL is not offered here. " + MklLibrary.FIX));
          }
          return new Choice(loaded.nativeBackend(), loaded.description(), null);
        } catch (Throwable e) {
          return new Choice(null, null, new KilnException("-D" + PROPERTY + "=mkl was given, but MKL"
              + " did not load: " + reason(e) + ". " + MklLibrary.FIX, e));
        }
      case "openblas":
        try {
          Loaded loaded = loadOrThrow(() -> openBlas.apply(threads));
          return new Choice(loaded.nativeBackend(), loaded.description(), null);
        } catch (KilnException e) {
          return new Choice(null, null, e);
        }
      case "":
      case "auto":
        Loaded fast = tryMkl(mkl, threads);
        if (fast != null) {
          return new Choice(fast.nativeBackend(), fast.description(), null);
        }
        Loaded loaded = tryLoad(() -> openBlas.apply(threads));
        return new Choice(loaded.description().startsWith("java") ? JAVA : loaded.nativeBackend(),
            loaded.description(), null);
      default:
        return new Choice(null, null, new KilnException(
            "-D" + PROPERTY + "=" + forced + " is not a BLAS backend; use mkl, openblas, java or auto"));
    }
  }

  /** MKL as loaded, or null where it is not offered or failed (said once, at WARNING). */
  private static Loaded tryMkl(Library mkl, Threading threads) {
    try {
      return mkl.load(threads, false);
    } catch (Throwable e) {
      if (e instanceof VirtualMachineError && !(e instanceof StackOverflowError)) {
        throw (VirtualMachineError) e;
      }
      LOG.log(System.Logger.Level.WARNING, "Kiln: Intel MKL's natives are on the class path but MKL"
          + " did not load (" + reason(e) + "); matrix products run on OpenBLAS instead. -D"
          + PROPERTY + "=openblas silences this.");
      return null;
    }
  }

  private static Loaded loadOrThrow(Supplier<Loaded> load) {
    try {
      return load.get();
    } catch (Throwable e) {
      throw new KilnException("-D" + PROPERTY + "=openblas was given, but OpenBLAS did not load: "
          + reason(e) + ". " + FIX, e);
    }
  }

  private static Loaded tryLoad(Supplier<Loaded> load) {
    try {
      return load.get();
    } catch (Throwable e) {
      if (e instanceof VirtualMachineError && !(e instanceof StackOverflowError)) {
        throw (VirtualMachineError) e;
      }
      String reason = reason(e);
      LOG.log(System.Logger.Level.WARNING, "Kiln: OpenBLAS did not load (" + reason
          + "); matrix products run on Kiln's pure-Java GEMM, several times slower. " + FIX
          + " -D" + PROPERTY + "=java silences this.");
      return new Loaded("java (OpenBLAS did not load: " + reason + ")", false);
    }
  }

  private static final String FIX = "Put org.bytedeco:openblas and org.bytedeco:javacpp, with"
      + " natives for this platform (classifier " + platform() + "), on the class path.";

  private static String platform() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch", "");
    String o = os.startsWith("mac") ? "macosx" : os.startsWith("windows") ? "windows" : "linux";
    String a = arch.equals("amd64") || arch.equals("x86_64") ? "x86_64"
        : arch.equals("aarch64") ? "arm64" : arch;
    return o + "-" + a;
  }

  private static String reason(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = root.getMessage() == null ? "" : root.getMessage().strip();
    while (message.endsWith(".")) {
      message = message.substring(0, message.length() - 1);
    }
    return root.getClass().getSimpleName() + (message.isEmpty() ? "" : ": " + message);
  }
}
