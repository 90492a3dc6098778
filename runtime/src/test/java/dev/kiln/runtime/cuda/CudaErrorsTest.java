package dev.kiln.runtime.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Error messages, PTX refusal messages and the NVRTC fallback's pure parts. */
class CudaErrorsTest {
  @Test
  void messageNamesOperationDeviceAndError() {
    assertEquals("could not allocate 4096 MiB on device 0 (NVIDIA H100): CUDA_ERROR_OUT_OF_MEMORY",
        CudaErrors.message("could not allocate " + CudaErrors.bytes(4096L << 20),
            "device 0 (NVIDIA H100)", "CUDA_ERROR_OUT_OF_MEMORY", "p.Foo.k"));
  }

  @Test
  void stickyErrorsNameTheLastKernel() {
    String m = CudaErrors.message("could not download 4.0 KiB from float device array #1 of 1024"
        + " elements", "device 0 (X)", "CUDA_ERROR_ILLEGAL_ADDRESS", "p.Foo.k");
    assertTrue(m.contains("the last one launched was p.Foo.k"), m);
    assertTrue(m.contains("restart the JVM"), m);
  }

  @Test
  void bytes() {
    assertEquals("1 byte", CudaErrors.bytes(1));
    assertEquals("512 bytes", CudaErrors.bytes(512));
    assertEquals("4.0 KiB", CudaErrors.bytes(4096));
    assertEquals("4096 MiB", CudaErrors.bytes(4096L << 20));
    assertEquals("1.5 MiB", CudaErrors.bytes(3L << 19));
  }

  @Test
  void driverVersion() {
    assertEquals("13.0", CudaErrors.driverVersion(13000));
    assertEquals("12.4", CudaErrors.driverVersion(12040));
  }

  @Test
  void ptxIncompatibilities() {
    assertTrue(CudaErrors.isPtxIncompatibility("CUDA_ERROR_UNSUPPORTED_PTX_VERSION"));
    assertTrue(CudaErrors.isPtxIncompatibility("CUDA_ERROR_INVALID_PTX"));
    assertTrue(CudaErrors.isPtxIncompatibility("CUDA_ERROR_NO_BINARY_FOR_GPU"));
    assertFalse(CudaErrors.isPtxIncompatibility("CUDA_ERROR_OUT_OF_MEMORY"));
  }

  @Test
  void aRefusedPtxSaysWhatItNeeds() {
    PtxInfo ptx = PtxInfo.parse(".version 9.0\n.target sm_80\n");
    String m = ModuleLoader.refused("12.4", "device 0 (NVIDIA A100)", 80, "META-INF/kiln/p/Foo.ptx",
        ptx, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION");
    assertEquals("the CUDA 12.4 driver refused META-INF/kiln/p/Foo.ptx with"
        + " CUDA_ERROR_UNSUPPORTED_PTX_VERSION on device 0 (NVIDIA A100), compute capability 8.0;"
        + " the PTX has .version 9.0, which needs a driver for CUDA 13.0 or newer, and .target sm_80",
        m);
    String fix = ModuleLoader.fix(ptx);
    assertTrue(fix.contains("CUDA 13.0 or newer") && fix.contains("NVRTC"), fix);
  }

  @Test
  void nvrtcArchitectureAndOptions() {
    int[] supported = {50, 52, 60, 70, 75, 80, 86, 89, 90};
    assertEquals(90, Nvrtc.pickArch(supported, 90));
    assertEquals(90, Nvrtc.pickArch(supported, 120));
    assertEquals(86, Nvrtc.pickArch(supported, 87));
    assertEquals(35, Nvrtc.pickArch(supported, 35));
    assertEquals(80, Nvrtc.pickArch(new int[0], 80));
    assertArrayEquals(new String[] {"--gpu-architecture=compute_80", "-std=c++17", "--fmad=false"},
        Nvrtc.options(80));
  }

  @Test
  void headersAreFoundTransitivelyFromTheTemplates() {
    String source = Resources.text(getClass().getClassLoader(),
        "META-INF/kiln/dev/kiln/runtime/cuda/TestKernels.cu");
    Map<String, String> headers = CudaSources.headers(source,
        name -> Resources.text(name, getClass().getClassLoader()));
    assertEquals(java.util.List.of("kiln/kiln.cuh", "kiln/math.cuh", "kiln/index.cuh", "kiln/reduce.cuh"),
        java.util.List.copyOf(headers.keySet()));
    assertTrue(headers.get("kiln/reduce.cuh").contains("block_reduce"));
  }

  @Test
  void aMissingHeaderIsNamed() {
    IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
        () -> CudaSources.headers("#include \"kiln/nope.cuh\"\n", name -> null));
    assertEquals("kiln/nope.cuh", e.getMessage());
  }
}
