package dev.kiln.tests.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kiln.runtime.KilnException;
import dev.kiln.runtime.cuda.CudaDevice;
import dev.kiln.runtime.cuda.CudaKernel;
import dev.kiln.runtime.cuda.CudaRuntime;
import dev.kiln.runtime.cuda.DeviceFloatArray;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the emulated driver catches, through the runtime's own error path: a kernel that writes past
 * the end of an array, and one whose threads do not all reach a barrier, fail at the next
 * synchronising call with an exception that names the error and the last kernel launched (as on a
 * GPU), and the device works again afterwards; fresh device memory reads as NaN, so a launcher that
 * forgets to initialise a temporary cannot pass by luck. The kernels are hand-written ({@code
 * META-INF/kiln/dev/kiln/tests/cuda/Faults.cu}). Runs in {@link EmulatedGpuTest}'s child JVM; on a
 * real GPU or without CUDA it is skipped (a GPU does not fault on every stray write).
 */
class EmulationFaultsTest {
  private static final String FAULTS = "dev/kiln/tests/cuda/Faults";

  private CudaDevice device;

  @BeforeEach
  void emulatedDevice() {
    assumeTrue(CudaRuntime.available(), () -> "no CUDA here: " + CudaRuntime.unavailableReason());
    device = CudaRuntime.device();
    assumeTrue(device.name().contains("Kiln CUDA emulation"), "these faults are checked on the emulated driver only");
  }

  private CudaKernel kernel(String name) {
    return device.kernel(EmulationFaultsTest.class, FAULTS, name);
  }

  @Test
  void aWritePastTheEndIsAnIllegalAddressNamingTheKernel() {
    try (DeviceFloatArray out = device.allocFloats(1000)) {
      kernel("writePastEnd").launchGrid(null, new long[] {1000}, 1000, out);
      KilnException e = assertThrows(KilnException.class, () -> device.defaultStream().synchronize());
      assertTrue(e.getMessage().contains("CUDA_ERROR_ILLEGAL_ADDRESS"), e.getMessage());
      assertTrue(e.getMessage().contains("dev.kiln.tests.cuda.Faults.writePastEnd"), e.getMessage());
    }
    assertTheDeviceStillWorks();
  }

  @Test
  void aBarrierNotReachedByEveryThreadFailsTheLaunch() {
    try (DeviceFloatArray out = device.allocFloats(300)) {
      kernel("divergingBarrier").launchGrid(null, new long[] {300}, 300, out);
      KilnException e = assertThrows(KilnException.class, out::download);
      assertTrue(e.getMessage().contains("CUDA_ERROR_LAUNCH_FAILED"), e.getMessage());
      assertTrue(e.getMessage().contains("dev.kiln.tests.cuda.Faults.divergingBarrier"), e.getMessage());
    }
    assertTheDeviceStillWorks();
  }

  @Test
  void freshDeviceMemoryIsNaN() {
    try (DeviceFloatArray a = device.allocFloats(5)) {
      for (float v : a.download()) {
        assertTrue(Float.isNaN(v), "fresh device memory should read as NaN, not " + v);
      }
      a.zero();
      assertArrayEquals(new float[5], a.download());
    }
  }

  /**
   * Under an emulated CUDA 12.6 driver, which refuses the build's PTX (ISA 9.0), the module comes
   * from NVRTC, and its kernels run.
   */
  @Test
  void anOlderDriverGetsItsKernelsFromNvrtc() {
    assumeTrue(device.driverVersion() < 13000, "the emulated driver is CUDA " + device.driverVersion()
        + " here, which reads the build's PTX; EmulatedGpuTest runs this test under a CUDA 12.6 driver too");
    assertTheDeviceStillWorks();
    String origin = device.moduleOrigin(FAULTS);
    assertTrue(origin != null && origin.contains("compiled by NVRTC 12.6"), String.valueOf(origin));
  }

  private void assertTheDeviceStillWorks() {
    try (DeviceFloatArray out = device.allocFloats(700)) {
      kernel("fill").launchGrid(null, new long[] {700}, 700, out);
      float[] got = out.download();
      for (int i = 0; i < got.length; i++) {
        assertTrue(got[i] == i, "fill[" + i + "] = " + got[i]);
      }
    }
  }
}
