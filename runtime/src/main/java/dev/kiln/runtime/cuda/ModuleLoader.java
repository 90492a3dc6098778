package dev.kiln.runtime.cuda;

import static jcuda.driver.JCudaDriver.cuModuleLoadData;

import dev.kiln.runtime.KilnException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import jcuda.CudaException;
import jcuda.driver.CUmodule;

/**
 * Loads a generated class's kernels: {@code META-INF/kiln/<base>.ptx}, built by nvcc at build time.
 * When there is none (no nvcc at build time), or the driver refuses it (a driver older than that
 * nvcc, or a GPU older than the PTX's target), it compiles {@code META-INF/kiln/<base>.cu} with
 * NVRTC for this device instead. When that is impossible too, the exception says what was tried and
 * how to fix it.
 */
final class ModuleLoader {
  /** Where generated classes' CUDA resources live. */
  static final String PREFIX = "META-INF/kiln/";

  private ModuleLoader() {}

  /** The module of {@code resourceBase}, such as {@code "dev/kiln/tests/ops/Reductions"}. */
  static KernelModule load(CudaDevice device, ClassLoader loader, String resourceBase) {
    String ptxPath = PREFIX + resourceBase + ".ptx";
    String cuPath = PREFIX + resourceBase + ".cu";
    byte[] ptx = Resources.bytes(loader, ptxPath);
    PtxInfo ptxInfo = null;
    String refusal = null;
    if (ptx != null) {
      ptxInfo = PtxInfo.parse(new String(ptx, StandardCharsets.UTF_8));
      try {
        return new KernelModule(device, resourceBase, loadPtx(device, ptx), ptxInfo, ptxPath);
      } catch (CudaException e) {
        refusal = CudaErrors.errorName(e);
        if (!CudaErrors.isPtxIncompatibility(refusal)) {
          throw CudaErrors.failure(device, "could not load " + ptxPath, e);
        }
      }
    }
    String source = Resources.text(loader, cuPath);
    if (source == null) {
      if (ptx == null) {
        throw new KilnException(cannotLoad(resourceBase) + "neither "
            + ptxPath + " nor " + cuPath + " is on the class path; compile the class with the Kiln"
            + " annotation processor (its CUDA backend writes both)");
      }
      throw new KilnException(cannotLoad(resourceBase) + refused(device, ptxPath, ptxInfo, refusal)
          + ", and there is no " + cuPath + " to compile with NVRTC instead; "
          + fix(ptxInfo));
    }
    Map<String, String> headers;
    try {
      headers = CudaSources.headers(source, name -> Resources.text(name, loader,
          ModuleLoader.class.getClassLoader()));
    } catch (IllegalStateException missing) {
      throw new KilnException(cannotLoad(resourceBase) + "to compile " + cuPath
          + " with NVRTC, the header "
          + missing.getMessage() + " it includes is not on the class path (it comes with"
          + " dev.kiln:kiln-cuda-templates)");
    }
    String compiled;
    try {
      compiled = Nvrtc.compile(cuPath, source, headers, device.computeCapability());
    } catch (Nvrtc.UnavailableException e) {
      String what = ptx == null
          ? "there is no " + ptxPath + " (nvcc was not found when the class was compiled)"
          : refused(device, ptxPath, ptxInfo, refusal);
      String fix = ptx == null
          ? "install NVRTC for CUDA 12 (libnvrtc.so.12, the cuda-nvrtc-12-x package), or build the"
              + " class with nvcc on the PATH"
          : fix(ptxInfo);
      throw new KilnException(cannotLoad(resourceBase) + what + ", and NVRTC, which would compile "
          + cuPath + " instead, is not available (" + e.getMessage() + "); " + fix, e);
    }
    String origin = cuPath + " compiled by NVRTC " + Nvrtc.version();
    try {
      return new KernelModule(device, resourceBase,
          loadPtx(device, compiled.getBytes(StandardCharsets.UTF_8)), PtxInfo.parse(compiled), origin);
    } catch (CudaException e) {
      String tooNew = CudaErrors.isPtxIncompatibility(CudaErrors.errorName(e))
          ? " (an NVRTC newer than the CUDA " + CudaErrors.driverVersion(device.driverVersion())
              + " driver writes PTX it cannot read: install an NVRTC no newer than the driver)"
          : "";
      throw CudaErrors.failure(device, "could not load the PTX of " + origin + tooNew
          + (ptx == null ? "" : "; " + ptxPath + " was refused with " + refusal), e);
    }
  }

  /** Loads PTX text, made NUL-terminated as the driver wants it. */
  private static CUmodule loadPtx(CudaDevice device, byte[] ptx) {
    byte[] image = ptx.length > 0 && ptx[ptx.length - 1] == 0 ? ptx : Arrays.copyOf(ptx, ptx.length + 1);
    device.makeCurrent();
    CUmodule module = new CUmodule();
    cuModuleLoadData(module, image);
    return module;
  }

  private static String cannotLoad(String resourceBase) {
    return "cannot load the CUDA kernels of " + resourceBase.replace('/', '.') + ": ";
  }

  private static String refused(CudaDevice device, String ptxPath, PtxInfo ptx, String error) {
    return refused(CudaErrors.driverVersion(device.driverVersion()), device.description(),
        device.computeCapability(), ptxPath, ptx, error);
  }

  /**
   * {@code "the CUDA 12.4 driver refused META-INF/kiln/p/Foo.ptx with CUDA_ERROR_UNSUPPORTED_PTX_VERSION
   * on device 0 (NVIDIA A100), compute capability 8.0; the PTX has .version 9.0, which needs a driver
   * for CUDA 13.0 or newer, and .target sm_80"}
   */
  static String refused(String driver, String device, int computeCapability, String ptxPath,
      PtxInfo ptx, String error) {
    String release = ptx.cudaRelease();
    return "the CUDA " + driver + " driver refused " + ptxPath + " with " + error + " on " + device
        + ", compute capability " + computeCapability / 10 + "." + computeCapability % 10
        + "; the PTX has " + ptx.versionLine()
        + (release == null ? "" : ", which needs a driver for CUDA " + release + " or newer")
        + (ptx.target() == null ? "" : ", and .target " + ptx.target());
  }

  /** How to make the PTX loadable. */
  static String fix(PtxInfo ptx) {
    String release = ptx.cudaRelease();
    return "install an NVIDIA driver that supports "
        + (release == null ? "that PTX version" : "CUDA " + release + " or newer")
        + ", or install NVRTC for CUDA 12 (libnvrtc.so.12, the cuda-nvrtc-12-x package) so that"
        + " Kiln compiles the kernels for this driver and GPU";
  }
}
