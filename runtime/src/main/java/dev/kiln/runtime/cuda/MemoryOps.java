package dev.kiln.runtime.cuda;

import jcuda.driver.CUdeviceptr;

/**
 * The device-memory calls a {@link DeviceArray} makes. {@link DeviceMemory} makes them on a GPU;
 * tests give arrays a host-side fake, so the arrays' own checks run without one.
 *
 * <p>Sizes are in bytes and never 0: arrays of no elements make no calls. {@code what} names the
 * array in error messages.
 */
interface MemoryOps {
  /** Allocates {@code bytes} bytes. */
  CUdeviceptr allocate(long bytes, String what);

  /** Frees what {@link #allocate} returned. */
  void free(CUdeviceptr pointer, long bytes, String what);

  /** Copies {@code bytes} bytes from a host {@code float[]}, {@code double[]} or {@code int[]}. */
  void copyToDevice(CUdeviceptr destination, Object hostSource, long bytes, String what);

  /** Copies {@code bytes} bytes into a host {@code float[]}, {@code double[]} or {@code int[]}. */
  void copyToHost(Object hostDestination, CUdeviceptr source, long bytes, String what);

  /** Sets {@code bytes} bytes to zero. */
  void zero(CUdeviceptr destination, long bytes, String what);
}
