package dev.kiln.runtime;

import java.util.Locale;

/**
 * The entry point of the runtime: which device generated kernels use.
 *
 * <p>{@code -Dkiln.device=cpu|cuda} forces a device. This build has only the CPU backend, so
 * forcing {@code cuda} fails loudly instead of silently running somewhere else.
 */
public final class Kiln {
  /** The system property that forces a device. */
  public static final String DEVICE_PROPERTY = "kiln.device";

  private Kiln() {}

  /** The device that kernels run on: the forced one, else the best one present. */
  public static Device device() {
    String forced = System.getProperty(DEVICE_PROPERTY);
    if (forced == null || forced.isBlank()) {
      return Device.CPU;
    }
    switch (forced.trim().toLowerCase(Locale.ROOT)) {
      case "cpu":
        return Device.CPU;
      case "cuda":
        throw new KilnException(
            "-D" + DEVICE_PROPERTY + "=cuda was given, but this build of Kiln has no CUDA backend yet;"
                + " run with -D" + DEVICE_PROPERTY + "=cpu or without the property");
      default:
        throw new KilnException(
            "-D" + DEVICE_PROPERTY + "=" + forced + " is not a device; use cpu or cuda");
    }
  }
}
