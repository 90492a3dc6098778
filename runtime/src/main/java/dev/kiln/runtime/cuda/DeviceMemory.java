package dev.kiln.runtime.cuda;

import static jcuda.driver.JCudaDriver.cuMemAlloc;
import static jcuda.driver.JCudaDriver.cuMemFree;
import static jcuda.driver.JCudaDriver.cuMemGetInfo;
import static jcuda.driver.JCudaDriver.cuMemcpyDtoH;
import static jcuda.driver.JCudaDriver.cuMemcpyHtoD;
import static jcuda.driver.JCudaDriver.cuMemsetD8;

import dev.kiln.runtime.KilnException;
import jcuda.CudaException;
import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;

/**
 * {@link MemoryOps} on a GPU, through the device's primary context. Copies are synchronous
 * ({@code cuMemcpyHtoD}, {@code cuMemcpyDtoH} on the legacy default stream, which orders them after
 * the work of every blocking stream, the kind {@link CudaDevice#newStream()} makes).
 */
final class DeviceMemory implements MemoryOps {
  private final CudaDevice device;

  DeviceMemory(CudaDevice device) {
    this.device = device;
  }

  @Override
  public CUdeviceptr allocate(long bytes, String what) {
    device.makeCurrent();
    CUdeviceptr pointer = new CUdeviceptr();
    try {
      cuMemAlloc(pointer, bytes);
      return pointer;
    } catch (CudaException e) {
      String size = CudaErrors.bytes(bytes);
      if ("CUDA_ERROR_OUT_OF_MEMORY".equals(CudaErrors.errorName(e))) {
        String message = CudaErrors.failure(device, "could not allocate " + size, e).getMessage();
        throw new KilnException(message + " (for " + what + freeMemory() + ")", e);
      }
      throw CudaErrors.failure(device, "could not allocate " + size + " for " + what, e);
    }
  }

  @Override
  public void free(CUdeviceptr pointer, long bytes, String what) {
    device.makeCurrent();
    try {
      cuMemFree(pointer);
    } catch (CudaException e) {
      throw CudaErrors.failure(device, "could not free " + what, e);
    }
  }

  @Override
  public void copyToDevice(CUdeviceptr destination, Object hostSource, long bytes, String what) {
    device.makeCurrent();
    try {
      cuMemcpyHtoD(destination, host(hostSource), bytes);
    } catch (CudaException e) {
      throw CudaErrors.failure(device, "could not upload " + CudaErrors.bytes(bytes) + " to " + what, e);
    }
  }

  @Override
  public void copyToHost(Object hostDestination, CUdeviceptr source, long bytes, String what) {
    device.makeCurrent();
    try {
      cuMemcpyDtoH(host(hostDestination), source, bytes);
    } catch (CudaException e) {
      throw CudaErrors.failure(
          device, "could not download " + CudaErrors.bytes(bytes) + " from " + what, e);
    }
    device.checkIndexErrors();
  }

  @Override
  public void zero(CUdeviceptr destination, long bytes, String what) {
    device.makeCurrent();
    try {
      cuMemsetD8(destination, (byte) 0, bytes);
    } catch (CudaException e) {
      throw CudaErrors.failure(device, "could not zero " + what, e);
    }
  }

  /** {@code "; 1024 MiB of 81559 MiB free"}, or nothing when the driver cannot say. */
  private String freeMemory() {
    try {
      long[] free = {0};
      long[] total = {0};
      cuMemGetInfo(free, total);
      return "; " + CudaErrors.bytes(free[0]) + " of " + CudaErrors.bytes(total[0]) + " free";
    } catch (CudaException e) {
      return "";
    }
  }

  private static Pointer host(Object array) {
    if (array instanceof float[] f) {
      return Pointer.to(f);
    }
    if (array instanceof double[] d) {
      return Pointer.to(d);
    }
    if (array instanceof int[] i) {
      return Pointer.to(i);
    }
    if (array instanceof long[] l) {
      return Pointer.to(l);
    }
    if (array instanceof short[] s) {
      return Pointer.to(s);
    }
    if (array instanceof byte[] b) {
      return Pointer.to(b);
    }
    throw new IllegalArgumentException("not a float[], double[], int[], long[], short[] or byte[]: " + array);
  }
}
