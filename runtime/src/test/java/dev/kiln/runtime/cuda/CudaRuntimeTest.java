package dev.kiln.runtime.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.runtime.KilnException;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** {@link CudaRuntime} as a machine without CUDA sees it; the GPU side is {@link CudaGpuTest}. */
class CudaRuntimeTest {
  @Test
  void availabilityIsCachedAndConsistent() {
    boolean first = CudaRuntime.available();
    assertEquals(first, CudaRuntime.available());
    if (first) {
      assertNull(CudaRuntime.unavailableReason());
    } else {
      assertNotNull(CudaRuntime.unavailableReason());
    }
  }

  @Test
  void withoutCudaTheReasonIsASentenceAndDeviceThrowsIt() {
    Assumptions.assumeFalse(CudaRuntime.available(), "this machine has CUDA");
    String reason = CudaRuntime.unavailableReason();
    assertTrue(Character.isUpperCase(reason.charAt(0)), reason);
    assertTrue(reason.endsWith("."), reason);
    assertTrue(!reason.contains("\n") && reason.length() < 300, reason);
    KilnException e = assertThrows(KilnException.class, CudaRuntime::device);
    assertEquals("CUDA is not available: " + reason, e.getMessage());
  }
}
