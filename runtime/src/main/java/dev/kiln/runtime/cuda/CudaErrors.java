package dev.kiln.runtime.cuda;

import dev.kiln.runtime.KilnException;
import java.util.Locale;
import java.util.Set;

/**
 * Builds the {@link KilnException}s that replace JCuda's {@code CudaException}s: each names the
 * operation, the device and the CUDA error. The message builders are pure and tested without a GPU.
 */
final class CudaErrors {
  /**
   * Errors that a kernel raises asynchronously and that the next CUDA call reports, whatever it is;
   * they leave the context unusable.
   */
  private static final Set<String> STICKY = Set.of(
      "CUDA_ERROR_ILLEGAL_ADDRESS", "CUDA_ERROR_LAUNCH_FAILED", "CUDA_ERROR_MISALIGNED_ADDRESS",
      "CUDA_ERROR_ILLEGAL_INSTRUCTION", "CUDA_ERROR_INVALID_PC", "CUDA_ERROR_HARDWARE_STACK_ERROR",
      "CUDA_ERROR_INVALID_ADDRESS_SPACE", "CUDA_ERROR_ASSERT", "CUDA_ERROR_LAUNCH_TIMEOUT");

  private CudaErrors() {}

  /**
   * The exception for a failed CUDA call.
   *
   * @param operation what was being done, as a phrase: {@code "could not allocate 4096 MiB"}
   * @param cause JCuda's exception, whose message is the error's name
   */
  static KilnException failure(CudaDevice device, String operation, RuntimeException cause) {
    return new KilnException(
        message(operation, device.description(), errorName(cause), device.lastKernel()), cause);
  }

  /**
   * {@code "<operation> on <device>: <error>"}, plus, for an error that an earlier kernel raised, which
   * kernel was launched last.
   */
  static String message(String operation, String device, String error, String lastKernel) {
    String m = operation + " on " + device + ": " + error;
    if (STICKY.contains(error)) {
      m += "; an earlier kernel raised this error asynchronously"
          + (lastKernel == null ? "" : " (the last one launched was " + lastKernel + ")")
          + ", and it leaves the CUDA context unusable: fix the kernel or its arguments and"
          + " restart the JVM";
    }
    return m;
  }

  /** JCuda's exception message is the error's name ({@code CUDA_ERROR_OUT_OF_MEMORY}). */
  static String errorName(RuntimeException e) {
    String m = e.getMessage();
    return m == null || m.isBlank() ? e.getClass().getName() : m.strip();
  }

  /** Whether the driver refused a PTX image in a way that NVRTC may fix by compiling the source. */
  static boolean isPtxIncompatibility(String error) {
    return error.equals("CUDA_ERROR_UNSUPPORTED_PTX_VERSION")
        || error.equals("CUDA_ERROR_INVALID_PTX")
        || error.equals("CUDA_ERROR_NO_BINARY_FOR_GPU")
        || error.equals("CUDA_ERROR_INVALID_IMAGE");
  }

  /** A size for people: {@code "512 bytes"}, {@code "4.0 KiB"}, {@code "4096 MiB"}, {@code "1.5 MiB"}. */
  static String bytes(long n) {
    if (n < 1024) {
      return n + (n == 1 ? " byte" : " bytes");
    }
    if (n < 1024 * 1024) {
      return String.format(Locale.ROOT, "%.1f KiB", n / 1024.0);
    }
    if (n % (1024 * 1024) == 0) {
      return (n / (1024 * 1024)) + " MiB";
    }
    return String.format(Locale.ROOT, "%.1f MiB", n / (1024.0 * 1024.0));
  }

  /** {@code 13000} as {@code "13.0"}, {@code 12040} as {@code "12.4"}. */
  static String driverVersion(int version) {
    return version / 1000 + "." + (version % 1000) / 10;
  }
}
