package dev.kiln.runtime.cuda;

import static jcuda.driver.JCudaDriver.cuDeviceGetCount;
import static jcuda.driver.JCudaDriver.cuInit;

import jcuda.driver.JCudaDriver;

/**
 * The first JCuda calls: loads the driver binding (and so {@code libcuda}), initialises the driver
 * and counts devices. Only {@link CudaRuntime} calls it, inside a catch of everything it may throw;
 * keeping it apart keeps JCuda's classes out of {@link CudaRuntime} itself.
 */
final class DriverProbe {
  private DriverProbe() {}

  /**
   * Null when CUDA is usable, else why not.
   *
   * @throws LinkageError when JCuda or its native library cannot be loaded
   * @throws jcuda.CudaException when the driver fails
   */
  static String probe() {
    JCudaDriver.setExceptionsEnabled(true);
    cuInit(0);
    int[] count = {0};
    cuDeviceGetCount(count);
    return count[0] > 0 ? null : Unavailability.NO_DEVICE;
  }
}
