package dev.kiln.runtime.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.runtime.Device;
import dev.kiln.runtime.Kiln;
import dev.kiln.runtime.KilnException;
import java.util.function.Supplier;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** {@link Kiln#device()} with and without {@code -Dkiln.device}, the property restored after each. */
class KilnDeviceTest {

  private static <T> T withProperty(String value, Supplier<T> body) {
    String saved = System.getProperty(Kiln.DEVICE_PROPERTY);
    try {
      if (value == null) {
        System.clearProperty(Kiln.DEVICE_PROPERTY);
      } else {
        System.setProperty(Kiln.DEVICE_PROPERTY, value);
      }
      return body.get();
    } finally {
      if (saved == null) {
        System.clearProperty(Kiln.DEVICE_PROPERTY);
      } else {
        System.setProperty(Kiln.DEVICE_PROPERTY, saved);
      }
    }
  }

  @Test
  void unsetPicksCudaWhenAvailableElseTheCpu() {
    Device expected = CudaRuntime.available() ? Device.CUDA : Device.CPU;
    assertEquals(expected, withProperty(null, Kiln::device));
    assertEquals(expected, withProperty(" ", Kiln::device));
  }

  @Test
  void withoutCudaUnsetFallsBackToTheCpuQuietly() {
    Assumptions.assumeFalse(CudaRuntime.available(), "this machine has CUDA");
    assertEquals(Device.CPU, withProperty(null, Kiln::device));
  }

  @Test
  void cpuIsAlwaysTheCpu() {
    assertEquals(Device.CPU, withProperty("cpu", Kiln::device));
    assertEquals(Device.CPU, withProperty(" CPU ", Kiln::device));
  }

  @Test
  void forcedCudaWithoutCudaSaysWhy() {
    Assumptions.assumeFalse(CudaRuntime.available(), "this machine has CUDA");
    KilnException e = assertThrows(KilnException.class, () -> withProperty("cuda", Kiln::device));
    assertTrue(e.getMessage().startsWith("-Dkiln.device=cuda was given, but CUDA is not available: "
        + CudaRuntime.unavailableReason()), e.getMessage());
    assertTrue(e.getMessage().contains("-Dkiln.device=cpu"), e.getMessage());
  }

  @Test
  void forcedCudaWithCudaIsCuda() {
    Assumptions.assumeTrue(CudaRuntime.available(), CudaRuntime::unavailableReason);
    assertEquals(Device.CUDA, withProperty("cuda", Kiln::device));
  }

  @Test
  void anUnknownDeviceIsRefused() {
    KilnException e = assertThrows(KilnException.class, () -> withProperty("tpu", Kiln::device));
    assertEquals("-Dkiln.device=tpu is not a device; use cpu or cuda", e.getMessage());
  }
}
