package dev.kiln.runtime.cuda;

import dev.kiln.runtime.KilnException;

/**
 * The entry point of the CUDA backend: whether CUDA can be used here, and the device.
 *
 * <p>Nothing of JCuda is touched until {@link #available()} (or {@link #device()}) is first called:
 * a CPU-only user who never asks never loads JCuda's classes or native libraries. The first call
 * loads JCuda's driver binding, initialises the driver and counts the GPUs, once; the answer is
 * cached for the life of the JVM. A machine without JCuda, without the NVIDIA driver or without a
 * GPU gets {@code false} and a {@link #unavailableReason() reason}, never an exception.
 */
public final class CudaRuntime {
  private static volatile CudaDevice device;

  private CudaRuntime() {}

  /** The probe, run once, on first use. */
  private static final class Probe {
    static final String REASON = run();

    private static String run() {
      try {
        Class.forName("jcuda.driver.JCudaDriver", false, CudaRuntime.class.getClassLoader());
      } catch (ClassNotFoundException | LinkageError e) {
        return Unavailability.NO_JCUDA;
      }
      try {
        return DriverProbe.probe();
      } catch (LinkageError | RuntimeException e) {
        return Unavailability.describe(e);
      }
    }
  }

  /**
   * Whether the CUDA driver loads, initialises and has at least one device. Cached; never throws.
   */
  public static boolean available() {
    return Probe.REASON == null;
  }

  /**
   * Null when {@link #available()}; else why not, as a plain sentence: no JCuda, no driver, no
   * device, or the driver's error.
   */
  public static String unavailableReason() {
    return Probe.REASON;
  }

  /**
   * Device 0, opened on first use with its primary context; the same object afterwards.
   *
   * @throws KilnException with the {@link #unavailableReason() reason} when CUDA is not available,
   *     or the driver's error when the device cannot be opened (then the next call tries again)
   */
  public static CudaDevice device() {
    CudaDevice d = device;
    return d != null ? d : open();
  }

  private static synchronized CudaDevice open() {
    if (device == null) {
      String reason = unavailableReason();
      if (reason != null) {
        throw new KilnException("CUDA is not available: " + reason);
      }
      device = CudaDevice.open(0);
    }
    return device;
  }
}
