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
import dev.kiln.runtime.cuda.DeviceIntArray;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the emulated driver catches, through the runtime's own error path, with hand-written kernels
 * ({@code META-INF/kiln/dev/kiln/tests/cuda/Faults.cu}). A kernel that writes past the end of an
 * array, one whose threads do not all reach a barrier, and one whose blocks race on an element each
 * fail at the next synchronising call with an exception that names the error and the last kernel
 * launched, and, as on a GPU, the context stays failed: every later call fails too. Fresh device
 * memory and shared memory read as NaN, so a launcher or kernel that uses what it never wrote cannot
 * pass by luck.
 *
 * <p>Runs in {@link EmulatedGpuTest}'s child JVMs (a fault test in a child of its own, since the
 * context does not recover); on a real GPU or without CUDA it is skipped (a GPU does not fault on
 * every stray write).
 */
class EmulationFaultsTest {
  private static final String FAULTS = "dev/kiln/tests/cuda/Faults";

  private CudaDevice device;

  @BeforeEach
  void emulatedDevice() {
    assumeTrue(CudaRuntime.available(), () -> "no CUDA here: " + CudaRuntime.unavailableReason());
    device = CudaRuntime.device();
    assumeTrue(EmulatedDriver.emulates(device.name()), "these faults are checked on the emulated driver only");
  }

  private CudaKernel kernel(String name) {
    return device.kernel(EmulationFaultsTest.class, FAULTS, name);
  }

  @Test
  void aWritePastTheEndIsAnIllegalAddressNamingTheKernel() {
    DeviceFloatArray out = device.allocFloats(1000);
    kernel("writePastEnd").launchGrid(null, new long[] {1000}, 1000, out);
    assertFailedWith("CUDA_ERROR_ILLEGAL_ADDRESS", "writePastEnd", () -> device.defaultStream().synchronize());
    assertTheContextStaysFailed("CUDA_ERROR_ILLEGAL_ADDRESS");
  }

  @Test
  void aBarrierNotReachedByEveryThreadFailsTheLaunch() {
    DeviceFloatArray out = device.allocFloats(300);
    kernel("divergingBarrier").launchGrid(null, new long[] {300}, 300, out);
    assertFailedWith("CUDA_ERROR_LAUNCH_FAILED", "divergingBarrier", out::download);
    assertTheContextStaysFailed("CUDA_ERROR_LAUNCH_FAILED");
  }

  /** Integer counts, so that no order of execution changes the sum: only the blocks' writes show it. */
  @Test
  void blocksWritingOneElementAreARace() {
    DeviceIntArray count = device.upload(new int[4]);
    kernel("racingCounts").launchGrid(null, new long[] {1000}, 1000, count);
    assertFailedWith("CUDA_ERROR_LAUNCH_FAILED", "racingCounts", count::download);
    assertTheContextStaysFailed("CUDA_ERROR_LAUNCH_FAILED");
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

  @Test
  void unwrittenSharedMemoryIsNaNInEveryBlock() {
    try (DeviceFloatArray out = device.allocFloats(700)) {
      kernel("readsUnwrittenShared").launchGrid(null, new long[] {700}, 700, out);
      float[] got = out.download();
      for (int i = 0; i < got.length; i++) {
        assertTrue(Float.isNaN(got[i]), "out[" + i + "] = " + got[i] + " read from shared memory no thread wrote");
      }
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
    try (DeviceFloatArray out = device.allocFloats(700)) {
      kernel("fill").launchGrid(null, new long[] {700}, 700, out);
      float[] got = out.download();
      for (int i = 0; i < got.length; i++) {
        assertTrue(got[i] == i, "fill[" + i + "] = " + got[i]);
      }
    }
    String origin = device.moduleOrigin(FAULTS);
    assertTrue(origin != null && origin.contains("compiled by NVRTC 12.6"), String.valueOf(origin));
  }

  private static void assertFailedWith(String error, String kernel, org.junit.jupiter.api.function.Executable call) {
    KilnException e = assertThrows(KilnException.class, call);
    assertTrue(e.getMessage().contains(error), e.getMessage());
    assertTrue(e.getMessage().contains("dev.kiln.tests.cuda.Faults." + kernel), e.getMessage());
  }

  /** A GPU context that saw a kernel fail fails every later call with the same error. */
  private void assertTheContextStaysFailed(String error) {
    KilnException again = assertThrows(KilnException.class, () -> device.allocFloats(3));
    assertTrue(again.getMessage().contains(error), again.getMessage());
    KilnException launch = assertThrows(KilnException.class, () -> device.defaultStream().synchronize());
    assertTrue(launch.getMessage().contains(error), launch.getMessage());
  }
}
