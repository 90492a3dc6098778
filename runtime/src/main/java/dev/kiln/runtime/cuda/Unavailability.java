package dev.kiln.runtime.cuda;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns what went wrong while probing for CUDA into one plain sentence for {@link
 * CudaRuntime#unavailableReason()}. Pure: it only reads the throwable's class names and messages, so
 * it never loads a JCuda class itself.
 */
final class Unavailability {
  /** When JCuda's classes are missing from the class path. */
  static final String NO_JCUDA =
      "JCuda is not on the class path (add the dependency org.jcuda:jcuda), so CUDA cannot be used.";

  /** When the driver loads but counts no GPU. */
  static final String NO_DEVICE = "No CUDA device: the NVIDIA driver reports no GPU.";

  private static final Pattern MISSING_LIBRARY =
      Pattern.compile("([^\\s/\\\\:]+\\.so(?:\\.\\d+)*): cannot open shared object file");
  private static final Pattern UNDEFINED_SYMBOL = Pattern.compile("undefined symbol: (\\S+)");

  private Unavailability() {}

  /** Why CUDA cannot be used, given what the probe threw. */
  static String describe(Throwable t) {
    String text = chainText(t);
    if (isMissingJCudaClass(t)) {
      return NO_JCUDA;
    }
    String library = missingLibrary(text);
    if (library != null) {
      if (library.startsWith("libcuda.so")) {
        return "No CUDA driver: " + library + " (the NVIDIA driver's library) was not found;"
            + " install the NVIDIA driver to use a GPU.";
      }
      return "JCuda's native library could not be loaded: it needs " + library
          + ", which was not found.";
    }
    Matcher symbol = UNDEFINED_SYMBOL.matcher(text);
    if (symbol.find()) {
      return "The NVIDIA driver is too old for JCuda " + JCUDA_VERSION + ": it lacks "
          + symbol.group(1) + "; install a newer driver.";
    }
    if (isCudaException(t)) {
      String error = firstLine(t.getMessage());
      switch (error) {
        case "CUDA_ERROR_NO_DEVICE":
          return "No CUDA device: the NVIDIA driver found no GPU (CUDA_ERROR_NO_DEVICE).";
        case "CUDA_ERROR_INSUFFICIENT_DRIVER":
          return "The NVIDIA driver is too old for JCuda " + JCUDA_VERSION
              + " (CUDA_ERROR_INSUFFICIENT_DRIVER); install a newer driver.";
        case "CUDA_ERROR_STUB_LIBRARY":
          return "No CUDA driver: only the CUDA toolkit's stub libcuda.so was found"
              + " (CUDA_ERROR_STUB_LIBRARY); install the NVIDIA driver.";
        default:
          return sentence("CUDA could not be initialised: " + error);
      }
    }
    if (t instanceof LinkageError) {
      return sentence("JCuda's native library could not be loaded: " + firstLine(text));
    }
    return sentence("CUDA could not be initialised: " + t.getClass().getName() + ": "
        + firstLine(t.getMessage()));
  }

  /** Why NVRTC cannot be used, as a clause, given what loading JCuda's binding of it threw. */
  static String describeNvrtc(Throwable t) {
    String library = missingLibrary(chainText(t));
    if (library != null) {
      return "JCuda's NVRTC binding needs " + library + ", which was not found";
    }
    if (isMissingJCudaClass(t)) {
      return "JCuda is not on the class path";
    }
    return firstLine(chainText(t));
  }

  /**
   * Why cuBLAS cannot be used, as a sentence, given what loading JCublas's binding threw (JCuda's
   * driver binding loaded: CUDA itself is available).
   */
  static String describeCublas(Throwable t) {
    String library = missingLibrary(chainText(t));
    if (library != null && library.startsWith("libcublas")) {
      return "JCublas " + JCUDA_VERSION + " needs " + library + ", CUDA 12's cuBLAS, which was not found;"
          + " install cuBLAS 12 (the CUDA 12 toolkit, or the nvidia-cublas-cu12 libraries) and put its directory"
          + " on LD_LIBRARY_PATH.";
    }
    if (library != null) {
      return "JCublas's native library needs " + library + ", which was not found.";
    }
    for (Throwable c = t; c != null; c = c.getCause()) {
      if ((c instanceof NoClassDefFoundError || c instanceof ClassNotFoundException)
          && c.getMessage() != null && c.getMessage().replace('.', '/').contains("jcuda/jcublas")) {
        return "JCublas is not on the class path (add the dependency org.jcuda:jcublas:" + JCUDA_VERSION + ").";
      }
    }
    return sentence("JCublas's native library could not be loaded: " + firstLine(chainText(t)));
  }

  /** The first library named as missing ({@code "libcuda.so.1"}), or null. */
  static String missingLibrary(String text) {
    Matcher m = MISSING_LIBRARY.matcher(text);
    return m.find() ? m.group(1) : null;
  }

  static final String JCUDA_VERSION = "12.6.0";

  private static boolean isMissingJCudaClass(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if ((c instanceof NoClassDefFoundError || c instanceof ClassNotFoundException)
          && c.getMessage() != null
          && !c.getMessage().startsWith("Could not initialize class")
          && c.getMessage().replace('.', '/').contains("jcuda/")) {
        return true;
      }
    }
    return false;
  }

  private static boolean isCudaException(Throwable t) {
    return t.getClass().getName().equals("jcuda.CudaException") && t.getMessage() != null;
  }

  /** The messages of the throwable and its causes, one after another. */
  private static String chainText(Throwable t) {
    StringBuilder b = new StringBuilder();
    for (Throwable c = t; c != null && b.length() < 100_000; c = c.getCause()) {
      if (c.getMessage() != null) {
        b.append(c.getMessage()).append('\n');
      }
    }
    return b.toString();
  }

  private static String firstLine(String s) {
    if (s == null || s.isBlank()) {
      return "no detail given";
    }
    String line = s.strip();
    int nl = line.indexOf('\n');
    return nl < 0 ? line : line.substring(0, nl).strip();
  }

  /** Ends the text with a full stop. */
  private static String sentence(String s) {
    return s.endsWith(".") ? s : s + ".";
  }
}
