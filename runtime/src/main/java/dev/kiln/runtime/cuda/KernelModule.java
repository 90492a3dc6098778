package dev.kiln.runtime.cuda;

import static jcuda.driver.JCudaDriver.cuModuleGetFunction;

import dev.kiln.runtime.KilnException;
import java.util.concurrent.ConcurrentHashMap;
import jcuda.CudaException;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;

/** A loaded module: one generated class's kernels, and where its PTX came from. */
final class KernelModule {
  private final CudaDevice device;
  private final String resourceBase;
  private final CUmodule module;
  private final PtxInfo ptx;
  private final String origin;
  private final ConcurrentHashMap<String, CudaKernel> kernels = new ConcurrentHashMap<>();

  /**
   * @param origin how the PTX was obtained, for messages: {@code "META-INF/kiln/p/Foo.ptx"} or
   *     {@code "META-INF/kiln/p/Foo.cu compiled by NVRTC 12.6"}
   */
  KernelModule(CudaDevice device, String resourceBase, CUmodule module, PtxInfo ptx, String origin) {
    this.device = device;
    this.resourceBase = resourceBase;
    this.module = module;
    this.ptx = ptx;
    this.origin = origin;
  }

  /** How the PTX was obtained. */
  String origin() {
    return origin;
  }

  /** The kernel of that name, looked up once. */
  CudaKernel kernel(String name) {
    CudaKernel k = kernels.get(name);
    return k != null ? k : kernels.computeIfAbsent(name, this::lookUp);
  }

  private CudaKernel lookUp(String name) {
    device.makeCurrent();
    CUfunction function = new CUfunction();
    try {
      cuModuleGetFunction(function, module, name);
    } catch (CudaException e) {
      if ("CUDA_ERROR_NOT_FOUND".equals(CudaErrors.errorName(e))) {
        throw new KilnException("there is no kernel '" + name + "' in " + origin + " (its kernels: "
            + String.join(", ", ptx.entries().keySet()) + ")", e);
      }
      throw CudaErrors.failure(device, "could not find kernel '" + name + "' in " + origin, e);
    }
    return new CudaKernel(device, resourceBase, name, function, ptx.entries().get(name));
  }
}
