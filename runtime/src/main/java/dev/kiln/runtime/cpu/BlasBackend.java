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
 * CpuExecutor}'s tasks multiply at once) or {@code openblas} (OpenBLAS's own pool, all processors
 * or {@code -Dkiln.blas.threads}). Why Kiln's pool, measured on the 2-core machine: a product
 * alone runs about as fast either way (float, best of runs, GFLOP/s at 512x1024x1024, 2048^3,
 * 256x2048x768: 218, 235, 200 on Kiln's pool against 220, 241, 211 on OpenBLAS's), but OpenBLAS's
 * idle workers keep spinning after each product, so Kiln kernels run just after it lose part of
 * the machine (a Java product took 26 ms right after OpenBLAS on its own threads against 17-19
 * ms right after OpenBLAS on Kiln's pool), and after a pause its sleeping workers wake slowly (a
 * 4.8 ms product took 9 ms after 300 ms idle, 5.6 ms on Kiln's pool). One pool, never both.
 */
enum BlasBackend {
  JAVA,
  /** OpenBLAS on its own threads ({@code -Dkiln.blas.threading=openblas}). */
  OPENBLAS,
  /** OpenBLAS single-threaded, one call per {@link CpuExecutor} task (the default). */
  OPENBLAS_ON_KILN_POOL;

  /** The system property that forces a backend. */
  static final String PROPERTY = "kiln.blas";

  /** The system property that says whose threads run OpenBLAS: kiln (default) or openblas. */
  static final String THREADING_PROPERTY = "kiln.blas.threading";

  private static final System.Logger LOG = System.getLogger(Gemm.class.getName());

  /** What was chosen: a backend with its description, or the failure of a forced OpenBLAS. */
  record Choice(BlasBackend backend, String description, KilnException failure) {}

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
   * "openblas (N threads, Kiln's pool)", "openblas (N threads)" or "java (reason)"; chooses the
   * backend if none was chosen yet.
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
                  onKilnPool -> OpenBlasGemm.load(onKilnPool));
          choice = c;
        }
      }
    }
    return c;
  }

  /**
   * The choice for the properties' values (null when not set), loading OpenBLAS with {@code load}
   * (given whether it runs on Kiln's pool; it returns the description).
   */
  static Choice choose(String forced, String threading, Function<Boolean, String> load) {
    String name = forced == null ? "" : forced.trim().toLowerCase(Locale.ROOT);
    String pool = threading == null ? "" : threading.trim().toLowerCase(Locale.ROOT);
    if (!pool.isEmpty() && !pool.equals("openblas") && !pool.equals("kiln")) {
      return new Choice(null, null, new KilnException("-D" + THREADING_PROPERTY + "=" + threading
          + " is not a thread pool; use openblas (OpenBLAS's threads) or kiln (Kiln's)"));
    }
    boolean onKilnPool = !pool.equals("openblas");
    BlasBackend openBlas = onKilnPool ? OPENBLAS_ON_KILN_POOL : OPENBLAS;
    switch (name) {
      case "java":
        return new Choice(JAVA, "java (-D" + PROPERTY + "=java)", null);
      case "openblas":
        try {
          return new Choice(openBlas, loadOrThrow(() -> load.apply(onKilnPool)), null);
        } catch (KilnException e) {
          return new Choice(null, null, e);
        }
      case "":
      case "auto":
        String loaded = tryLoad(() -> load.apply(onKilnPool));
        return new Choice(loaded.startsWith("openblas") ? openBlas : JAVA, loaded, null);
      default:
        return new Choice(null, null, new KilnException(
            "-D" + PROPERTY + "=" + forced + " is not a BLAS backend; use openblas, java or auto"));
    }
  }

  private static String loadOrThrow(Supplier<String> load) {
    try {
      return load.get();
    } catch (Throwable e) {
      throw new KilnException("-D" + PROPERTY + "=openblas was given, but OpenBLAS did not load: "
          + reason(e) + ". " + FIX, e);
    }
  }

  private static String tryLoad(Supplier<String> load) {
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
      return "java (OpenBLAS did not load: " + reason + ")";
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
