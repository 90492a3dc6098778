package dev.kiln.runtime.cpu;

import dev.kiln.runtime.KilnException;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Which backend {@link Gemm} runs products on, chosen once, on the first product large enough to
 * want OpenBLAS (so that JavaCPP is never loaded by a program that does not need it).
 *
 * <p>{@code -Dkiln.blas=java} picks the pure-Java kernels; {@code -Dkiln.blas=openblas} demands
 * OpenBLAS and fails, saying why, when it cannot load; without the property OpenBLAS is tried and,
 * when it cannot load, the Java kernels run after one warning that names the reason and the fix:
 * a slow fallback is never silent.
 *
 * <p>{@code -Dkiln.blas.threading} says whose threads run an OpenBLAS product: {@code kiln} (the
 * default: OpenBLAS single-threaded, the product cut into blocks of rows or columns that {@link
 * CpuExecutor}'s tasks multiply at once), {@code shared} (OpenBLAS divides each product among as
 * many jobs as {@link CpuExecutor} has threads, run by the calling thread and native workers of
 * Kiln's JNI shim, which sleep between products; through OpenBLAS's threads callback, {@link
 * HeapArrayGemm#shareThreads}; where the shim or the callback is missing it falls back to {@code
 * kiln}, saying why) or {@code openblas} (OpenBLAS's own pool, all processors or {@code
 * -Dkiln.blas.threads}).
 *
 * <p>Measured on the 2-core machine (2026-11-28). OpenBLAS divides a large product somewhat better
 * than blocks do: 512x1024x1024 took 7.1, 7.1 and 6.5 ms {@code shared} (medians of 60 calls,
 * three alternating runs) against 9.1, 8.2 and 7.5 on Kiln's blocks, but 6.4 and 7.9 against 6.5
 * and 6.7 in two more; with a short inner size (256x2048x256 to 768x2048x256) about the same. Small
 * products lose: the sample's training step (products of about 3 million multiply-adds) took
 * 10.1-12.7 ms a step {@code shared} and 10.5-14.7 on OpenBLAS's own threads against 7.4-11.7
 * (mostly 8.3-9.7) on Kiln's blocks. Hence {@code kiln} by default. OpenBLAS's own idle workers keep spinning after
 * each product, so Kiln kernels run just after it lose part of the machine (a two-thread pass over
 * 16 MB right after a product: 3.8-4.5 ms after OpenBLAS's own threads, 2.2-2.8 after the shim's, mostly
 * 2.2-2.5 after Kiln's blocks); the shim's workers watch for a next product for 50 microseconds, then sleep.
 */
enum BlasBackend {
  JAVA,
  /**
   * One OpenBLAS call a product, which OpenBLAS divides among its threads: the shim's sleeping
   * workers ({@code shared}) or its own ({@code -Dkiln.blas.threading=openblas}).
   */
  OPENBLAS,
  /** OpenBLAS single-threaded, one call per {@link CpuExecutor} task (the default, {@code kiln}). */
  OPENBLAS_ON_KILN_POOL;

  /** The system property that forces a backend. */
  static final String PROPERTY = "kiln.blas";

  /** The system property that says whose threads run OpenBLAS: kiln (default), shared or openblas. */
  static final String THREADING_PROPERTY = "kiln.blas.threading";

  private static final System.Logger LOG = System.getLogger(Gemm.class.getName());

  /** What was chosen: a backend with its description, or the failure of a forced OpenBLAS. */
  record Choice(BlasBackend backend, String description, KilnException failure) {}

  /** The values of {@code -Dkiln.blas.threading}. */
  enum Threading {
    /** Blocks of each product on Kiln's pool, OpenBLAS single-threaded in each (the default). */
    KILN,
    /** OpenBLAS divides each product among the caller and the shim's sleeping workers. */
    SHARED,
    /** OpenBLAS's own pool. */
    OPENBLAS
  }

  /** What loading OpenBLAS did: its description, and whether products are cut into blocks on Kiln's pool. */
  record Loaded(String description, boolean onKilnPool) {
    /** The OpenBLAS backend that runs products as loaded. */
    BlasBackend openBlas() {
      return onKilnPool ? OPENBLAS_ON_KILN_POOL : OPENBLAS;
    }
  }

  private static volatile Choice choice;

  /**
   * The backend for products worth a native call.
   *
   * @throws KilnException when the property names no backend, or names openblas and it did not
   *     load (on every call, with the same message)
   */
  static BlasBackend chosen() {
    Choice c = choice();
    if (c.failure != null) {
      throw new KilnException(c.failure.getMessage(), c.failure.getCause());
    }
    return c.backend;
  }

  /**
   * "openblas (N threads, shared: ...; ...)", "openblas (N threads, Kiln's pool...; ...)",
   * "openblas (N threads, OpenBLAS's own; ...)" or "java (reason)"; chooses the backend if none was
   * chosen yet.
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
          // a lambda, not OpenBlasGemm::load: the class must first be resolved inside the try
          String arrays = HeapArrayGemm.refusal(System.getProperty(HeapArrayGemm.PROPERTY));
          c = arrays != null ? new Choice(null, null, new KilnException(arrays))
              : choose(System.getProperty(PROPERTY), System.getProperty(THREADING_PROPERTY),
                  threading -> OpenBlasGemm.load(threading));
          choice = c;
        }
      }
    }
    return c;
  }

  /**
   * The choice for the properties' values (null when not set), loading OpenBLAS with {@code load}
   * (given whose threads run its products; it says what it did).
   */
  static Choice choose(String forced, String threading, Function<Threading, Loaded> load) {
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
      case "openblas":
        threads = Threading.OPENBLAS;
        break;
      default:
        return new Choice(null, null, new KilnException("-D" + THREADING_PROPERTY + "=" + threading
            + " is not a way to run OpenBLAS's threads; use kiln (the default: blocks of each product"
            + " on Kiln's pool), shared (OpenBLAS divides each product among the caller and Kiln's"
            + " sleeping native workers) or openblas (OpenBLAS's own threads)"));
    }
    switch (name) {
      case "java":
        return new Choice(JAVA, "java (-D" + PROPERTY + "=java)", null);
      case "openblas":
        try {
          Loaded loaded = loadOrThrow(() -> load.apply(threads));
          return new Choice(loaded.openBlas(), loaded.description(), null);
        } catch (KilnException e) {
          return new Choice(null, null, e);
        }
      case "":
      case "auto":
        Loaded loaded = tryLoad(() -> load.apply(threads));
        return new Choice(loaded.description().startsWith("openblas") ? loaded.openBlas() : JAVA,
            loaded.description(), null);
      default:
        return new Choice(null, null, new KilnException(
            "-D" + PROPERTY + "=" + forced + " is not a BLAS backend; use openblas, java or auto"));
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
