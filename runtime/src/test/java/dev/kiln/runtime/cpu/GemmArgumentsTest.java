package dev.kiln.runtime.cpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** What {@link Gemm} refuses, with which message, before touching any array. */
class GemmArgumentsTest {
  private final float[] a = new float[12];
  private final float[] b = new float[12];
  private final float[] c = new float[12];

  /** The base call: m=3, n=3, k=4, A 3x4, B 4x3, C 3x3, each in 12 elements. */
  private void sgemm(int m, int n, int k, int aOffset, int lda, int ldb, int ldc) {
    Gemm.sgemm(false, false, m, n, k, a, aOffset, lda, b, 0, ldb, 0f, c, 0, ldc);
  }

  private static void refused(String expected, Executable call) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
    assertTrue(e.getMessage().contains(expected),
        "message '" + e.getMessage() + "' should contain '" + expected + "'");
  }

  @Test
  void validCallPasses() {
    sgemm(3, 3, 4, 0, 4, 3, 3);
  }

  @Test
  void negativeSizes() {
    refused("Gemm.sgemm: m must not be negative, but was -1", () -> sgemm(-1, 3, 4, 0, 4, 3, 3));
    refused("n must not be negative", () -> sgemm(3, -2, 4, 0, 4, 3, 3));
    refused("k must not be negative", () -> sgemm(3, 3, -3, 0, 4, 3, 3));
    refused("batch must not be negative", () -> Gemm.sgemmBatched(-1, false, false, 1, 1, 1, a, 0,
        1, 1, b, 0, 1, 1, 0f, c, 0, 1, 1));
  }

  @Test
  void leadingDimensions() {
    refused("lda must be at least max(1, k) = 4, but was 3", () -> sgemm(3, 3, 4, 0, 3, 3, 3));
    refused("ldb must be at least max(1, n) = 3, but was 2", () -> sgemm(3, 3, 4, 0, 4, 2, 3));
    refused("ldc must be at least max(1, n) = 3, but was 0", () -> sgemm(3, 3, 4, 0, 4, 3, 0));
    refused("lda must be at least max(1, m) = 3", () -> Gemm.sgemm(true, false, 3, 3, 4, a, 0, 2,
        b, 0, 3, 0f, c, 0, 3));
    refused("ldb must be at least max(1, k) = 4", () -> Gemm.sgemm(false, true, 3, 3, 4, a, 0, 4,
        b, 0, 3, 0f, c, 0, 3));
  }

  @Test
  void indicesOutsideTheArrays() {
    refused("a has 12 elements, but the 3 x 4 matrix at offset 1 (lda 4) reaches element 12",
        () -> sgemm(3, 3, 4, 1, 4, 3, 3));
    refused("c has 12 elements", () -> sgemm(3, 3, 4, 0, 4, 3, 5));
    refused("the offset into a must not be negative", () -> sgemm(3, 3, 4, -1, 4, 3, 3));
    refused("b has 12 elements, but the 2 4 x 3 matrices at offset 0 (ldb 3, stride 1)",
        () -> Gemm.sgemmBatched(2, false, false, 1, 3, 4, a, 0, 4, 4, b, 0, 3, 1, 0f,
            new float[6], 0, 3, 3));
    refused("the batch stride of c must not be negative", () -> Gemm.sgemmBatched(2, false, false,
        1, 1, 1, a, 0, 1, 1, b, 0, 1, 1, 0f, c, 4, 1, -1));
    // sizes whose int products wrap: the bound is computed in long
    refused("a has 12 elements", () -> Gemm.sgemm(false, false, 65536, 1, 65536, a, 0, 65536, b,
        0, 1, 0f, c, 0, 1));
  }

  @Test
  void nullArrays() {
    refused("array b is null", () -> Gemm.dgemm(false, false, 1, 1, 1, new double[1], 0, 1, null,
        0, 1, 0, new double[1], 0, 1));
  }

  @Test
  void overlappingOutputs() {
    refused("strideC 2 makes the 2 C matrices (2 x 3, ldc 3) overlap", () -> Gemm.sgemmBatched(2,
        false, false, 2, 3, 1, a, 0, 1, 2, b, 0, 3, 0, 0f, new float[20], 0, 3, 2));
    refused("c and a are the same array", () -> Gemm.sgemm(false, false, 2, 2, 2, a, 0, 2, b, 0, 2,
        0f, a, 2, 2));
    refused("c and b are the same array", () -> Gemm.sgemm(false, false, 2, 2, 2, a, 0, 2, b, 0, 2,
        0f, b, 3, 2));
  }

  @Test
  void refusedCallsWriteNothing() {
    float[] before = c.clone();
    refused("lda", () -> sgemm(3, 3, 4, 0, 3, 3, 3));
    assertArrayEquals(before, c);
  }

  @Test
  void disjointLayoutsPass() {
    // interleaved C matrices (stride n, ldc batch*n) and C after A in one array are fine
    Gemm.sgemmBatched(2, false, false, 2, 3, 1, a, 0, 1, 2, b, 0, 3, 0, 0f, new float[12], 0, 6, 3);
    Gemm.sgemm(false, false, 2, 2, 2, a, 0, 2, b, 0, 2, 0f, a, 4, 2);
  }
}
