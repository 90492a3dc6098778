package dev.kiln.runtime.cuda;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.runtime.KilnException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * What {@link CudaBlas} refuses, with which message, before it looks for a device: device arrays
 * over {@link FakeMemory}, no GPU needed. The rules are the CPU Gemm's, with offsets and strides in
 * {@code long}.
 */
class CudaBlasArgumentsTest {
  private final FakeMemory memory = new FakeMemory();
  private final DeviceFloatArray a = new DeviceFloatArray(memory, 12);
  private final DeviceFloatArray b = new DeviceFloatArray(memory, 12);
  private final DeviceFloatArray c = new DeviceFloatArray(memory, 12);

  /** The base call: m=3, n=3, k=4, A 3x4, B 4x3, C 3x3, each in 12 elements. */
  private void sgemm(int m, int n, int k, long aOffset, int lda, int ldb, int ldc) {
    CudaBlas.sgemm(null, false, false, m, n, k, a, aOffset, lda, b, 0, ldb, 0f, c, 0, ldc);
  }

  private static void refused(String expected, Executable call) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
    assertTrue(e.getMessage().contains(expected),
        "message '" + e.getMessage() + "' should contain '" + expected + "'");
  }

  @Test
  void negativeSizes() {
    refused("CudaBlas.sgemm: m must not be negative, but was -1", () -> sgemm(-1, 3, 4, 0, 4, 3, 3));
    refused("n must not be negative", () -> sgemm(3, -2, 4, 0, 4, 3, 3));
    refused("k must not be negative", () -> sgemm(3, 3, -3, 0, 4, 3, 3));
    refused("CudaBlas.sgemmBatched: batch must not be negative", () -> CudaBlas.sgemmBatched(null,
        -1, false, false, 1, 1, 1, a, 0, 1, 1, b, 0, 1, 1, 0f, c, 0, 1, 1));
  }

  @Test
  void leadingDimensions() {
    refused("lda must be at least max(1, k) = 4, but was 3", () -> sgemm(3, 3, 4, 0, 3, 3, 3));
    refused("ldb must be at least max(1, n) = 3, but was 2", () -> sgemm(3, 3, 4, 0, 4, 2, 3));
    refused("ldc must be at least max(1, n) = 3, but was 0", () -> sgemm(3, 3, 4, 0, 4, 3, 0));
    refused("lda must be at least max(1, m) = 3", () -> CudaBlas.sgemm(null, true, false, 3, 3, 4,
        a, 0, 2, b, 0, 3, 0f, c, 0, 3));
    refused("ldb must be at least max(1, k) = 4", () -> CudaBlas.sgemm(null, false, true, 3, 3, 4,
        a, 0, 4, b, 0, 3, 0f, c, 0, 3));
  }

  @Test
  void elementsOutsideTheArrays() {
    refused("a has 12 elements, but the 3 x 4 matrix at offset 1 (lda 4) reaches element 12",
        () -> sgemm(3, 3, 4, 1, 4, 3, 3));
    refused("c has 12 elements", () -> sgemm(3, 3, 4, 0, 4, 3, 5));
    refused("the offset into a must not be negative", () -> sgemm(3, 3, 4, -1, 4, 3, 3));
    refused("b has 12 elements, but the 2 4 x 3 matrices at offset 0 (ldb 3, stride 1)",
        () -> CudaBlas.sgemmBatched(null, 2, false, false, 1, 3, 4, a, 0, 4, 4, b, 0, 3, 1, 0f,
            new DeviceFloatArray(memory, 6), 0, 3, 3));
    refused("the batch stride of c must not be negative", () -> CudaBlas.sgemmBatched(null, 2,
        false, false, 1, 1, 1, a, 0, 1, 1, b, 0, 1, 1, 0f, c, 4, 1, -1));
    // offsets and strides past the int range, and products that wrap even a long
    refused("a has 12 elements, but the 3 x 4 matrix at offset 4294967296",
        () -> sgemm(3, 3, 4, 1L << 32, 4, 3, 3));
    refused("a has 12 elements", () -> sgemm(65536, 1, 65536, 0, 65536, 1, 1));
    refused("reach element beyond " + Long.MAX_VALUE, () -> CudaBlas.sgemmBatched(null, 3, false,
        false, 1, 1, 1, a, 0, 1, Long.MAX_VALUE / 2 + 10, b, 0, 1, 0, 0f, c, 0, 1, 1));
  }

  @Test
  void nullArraysAndOverlaps() {
    try (DeviceDoubleArray x = new DeviceDoubleArray(memory, 1)) {
      refused("CudaBlas.dgemm: array b is null", () -> CudaBlas.dgemm(null, false, false, 1, 1, 1,
          x, 0, 1, null, 0, 1, 0, x, 0, 1));
    }
    refused("strideC 2 makes the 2 C matrices (2 x 3, ldc 3) overlap", () -> CudaBlas.sgemmBatched(
        null, 2, false, false, 2, 3, 1, a, 0, 1, 2, b, 0, 3, 0, 0f, new DeviceFloatArray(memory, 20),
        0, 3, 2));
    refused("c and a are the same array", () -> CudaBlas.sgemm(null, false, false, 2, 2, 2, a, 0, 2,
        b, 0, 2, 0f, a, 2, 2));
    refused("c and b are the same array", () -> CudaBlas.sgemm(null, false, false, 2, 2, 2, a, 0, 2,
        b, 0, 2, 0f, b, 3, 2));
  }

  @Test
  void closedArrays() {
    DeviceFloatArray closed = new DeviceFloatArray(memory, 12);
    closed.close();
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> CudaBlas.sgemm(null, false, false, 3, 3, 4, a, 0, 4, closed, 0, 3, 0f, c, 0, 3));
    assertTrue(e.getMessage().contains("is closed"), e.getMessage());
  }

  /** A valid call gets as far as the device: here, without CUDA, that is a KilnException saying why. */
  @Test
  void aValidCallNeedsADevice() {
    if (CudaRuntime.available()) {
      return; // CudaBlasGpuTest runs the products
    }
    KilnException e = assertThrows(KilnException.class, () -> sgemm(3, 3, 4, 0, 4, 3, 3));
    assertTrue(e.getMessage().startsWith("CUDA is not available: "), e.getMessage());
  }

  /** cuBLAS's availability is a sentence, never an exception; without cuBLAS 12 it names the library. */
  @Test
  void availabilityIsAnAnswer() {
    String reason = CudaBlas.unavailableReason();
    assertTrue(reason == null || (reason.endsWith(".") && !reason.contains("\n")), reason);
    assertTrue(CudaBlas.available() == (reason == null));
  }
}
