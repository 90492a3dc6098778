package dev.kiln.runtime;

import dev.kiln.runtime.cuda.CudaRuntime;
import java.util.Locale;

/**
 * The entry point of the runtime: which device generated kernels use.
 *
 * <p>Without {@code -Dkiln.device}, kernels run on CUDA when {@link CudaRuntime#available()} (JCuda
 * loads, the NVIDIA driver initialises and reports a GPU), else on the CPU, silently: a machine
 * without CUDA is an ordinary CPU machine. {@code -Dkiln.device=cpu} forces the CPU; {@code
 * -Dkiln.device=cuda} forces CUDA and fails loudly, with the reason, when CUDA is not available
 * instead of running somewhere else.
 */
public final class Kiln {
  /** The system property that forces a device. */
  public static final String DEVICE_PROPERTY = "kiln.device";

  private Kiln() {}

  /**
   * The device that kernels run on: the forced one, else CUDA when available, else the CPU.
   *
   * @throws KilnException when the property names no device, or names {@code cuda} and CUDA is not
   *     available
   */
  public static Device device() {
    String forced = System.getProperty(DEVICE_PROPERTY);
    if (forced == null || forced.isBlank()) {
      return CudaRuntime.available() ? Device.CUDA : Device.CPU;
    }
    switch (forced.trim().toLowerCase(Locale.ROOT)) {
      case "cpu":
        return Device.CPU;
      case "cuda":
        if (CudaRuntime.available()) {
          return Device.CUDA;
        }
        throw new KilnException("-D" + DEVICE_PROPERTY + "=cuda was given, but CUDA is not available: "
            + CudaRuntime.unavailableReason() + " Run with -D" + DEVICE_PROPERTY
            + "=cpu or without the property to use the CPU.");
      default:
        throw new KilnException(
            "-D" + DEVICE_PROPERTY + "=" + forced + " is not a device; use cpu or cuda");
    }
  }
}
