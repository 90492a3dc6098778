package dev.kiln.runtime.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.kiln.runtime.KilnException;
import java.util.Random;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link CudaBlas} on a GPU (or the emulated driver and cuBLAS): every product against a loop in
 * double on the host, within the GEMM bound {@code (k + 2) * eps * (sum |a*b| + |beta*c|)}, and
 * every element of C's array outside the product left as it was. Offsets, leading dimensions wider
 * than the rows, all four transpose combinations, batches with separate, shared (stride 0) and
 * row-interleaved operands, {@code beta} 0 over NaN, and {@code k = 0}. Skipped, with the reason,
 * where CUDA is not available.
 */
@Tag("gpu")
class CudaBlasGpuTest {
  /** Left in C's array where the product must not write. */
  private static final double UNTOUCHED = 12345.0;

  private static CudaDevice device;

  @BeforeEach
  void needsAGpu() {
    Assumptions.assumeTrue(CudaRuntime.available(),
        () -> "no CUDA here: " + CudaRuntime.unavailableReason());
    Assumptions.assumeTrue(CudaBlas.available(), () -> "no cuBLAS here: " + CudaBlas.unavailableReason());
    device = CudaRuntime.device();
  }

  /** One call: matrix q of the batch at offset + q * stride; the stored widths are padded by the ld. */
  private record Case(int batch, boolean transA, boolean transB, int m, int n, int k, long aOffset,
      int lda, long strideA, long bOffset, int ldb, long strideB, double beta, long cOffset, int ldc,
      long strideC) {

    /** A single product, padded leading dimensions and offsets. */
    static Case single(boolean transA, boolean transB, int m, int n, int k, double beta) {
      int aCols = transA ? m : k;
      int bCols = transB ? k : n;
      return new Case(1, transA, transB, m, n, k, 3, aCols + 4, 0, 5, bCols + 1, 0, beta, 7, n + 2, 0);
    }

    long aLength() {
      return length(aOffset, strideA, transA ? k : m, lda);
    }

    long bLength() {
      return length(bOffset, strideB, transB ? n : k, ldb);
    }

    long cLength() {
      return length(cOffset, strideC, m, ldc);
    }

    /** Up to the last row's padding of the last matrix, and two more. */
    private long length(long offset, long stride, int rows, int ld) {
      return offset + (batch - 1L) * stride + (long) Math.max(rows, 1) * ld + 2;
    }

    double opA(double[] a, int q, int i, int p) {
      return a[(int) (aOffset + q * strideA + (transA ? (long) p * lda + i : (long) i * lda + p))];
    }

    double opB(double[] b, int q, int p, int j) {
      return b[(int) (bOffset + q * strideB + (transB ? (long) j * ldb + p : (long) p * ldb + j))];
    }

    int cIndex(int q, int i, int j) {
      return (int) (cOffset + q * strideC + (long) i * ldc + j);
    }
  }

  @Test
  void sgemmEveryTransposeOverNaN() {
    for (boolean ta : new boolean[] {false, true}) {
      for (boolean tb : new boolean[] {false, true}) {
        checkFloat(Case.single(ta, tb, 37, 29, 53, 0));
      }
    }
  }

  @Test
  void sgemmAddsBetaTimesC() {
    checkFloat(Case.single(false, false, 16, 33, 9, 0.5));
    checkFloat(Case.single(true, true, 5, 7, 64, -1.25));
  }

  @Test
  void dgemmEveryTranspose() {
    for (boolean ta : new boolean[] {false, true}) {
      for (boolean tb : new boolean[] {false, true}) {
        checkDouble(Case.single(ta, tb, 23, 41, 31, 0));
        checkDouble(Case.single(ta, tb, 8, 3, 17, 0.75));
      }
    }
  }

  @Test
  void batchesWithSeparateSharedAndInterleavedOperands() {
    // separate matrices, B shared by the batch (stride 0), C a whole matrix apart plus one
    Case shared = new Case(3, false, true, 11, 13, 17, 2, 20, 11 * 20 + 3, 1, 18, 0, 0, 4, 15, 11 * 15 + 1);
    // LSTM-style gates: the batch's C matrices interleaved row by row (ldc = batch * n, stride n)
    Case interleaved = new Case(4, true, false, 9, 6, 12, 0, 9, 12 * 9, 0, 6 * 4, 6, 0.5, 0, 6 * 4, 6);
    for (Case c : new Case[] {shared, interleaved}) {
      checkFloat(c);
      checkDouble(c);
    }
    // a batch of one through the batched entry point
    checkFloat(new Case(1, true, true, 4, 5, 6, 1, 4, 999, 2, 6, 999, 0, 3, 5, 999));
  }

  @Test
  void kZeroScalesCAndEmptyProductsTouchNothing() {
    checkFloat(Case.single(false, false, 6, 5, 0, 0)); // C = 0, the NaN overwritten
    checkDouble(Case.single(true, false, 6, 5, 0, 2));
    checkFloat(Case.single(false, false, 0, 5, 4, 0));
    checkDouble(Case.single(false, true, 6, 0, 4, 0));
    checkFloat(new Case(0, false, false, 3, 3, 3, 0, 3, 9, 0, 3, 9, 0, 0, 3, 9));
  }

  /** A kernel writes A on a stream of its own, the product reads it there: stream order. */
  @Test
  void runsInStreamOrderWithKernels() {
    int m = 64;
    int n = 48;
    int k = 80;
    float[] x = new float[m * k];
    float[] b = new float[k * n];
    Random r = new Random(7);
    for (int i = 0; i < x.length; i++) {
      x[i] = r.nextInt(9) - 4;
    }
    for (int i = 0; i < b.length; i++) {
      b[i] = r.nextInt(9) - 4;
    }
    try (CudaStream stream = device.newStream();
        DeviceFloatArray dx = device.upload(x);
        DeviceFloatArray da = device.allocFloats(x.length);
        DeviceFloatArray db = device.upload(b);
        DeviceFloatArray dc = device.allocFloats((long) m * n)) {
      device.resetStats();
      device.kernel(CudaGpuTest.class, "dev/kiln/runtime/cuda/TestKernels", "axpb_map")
          .launchMap(stream, x.length, (long) x.length, 2f, dx, 0.5f, da);
      CudaBlas.sgemm(stream, false, false, m, n, k, da, 0, k, db, 0, n, 0f, dc, 0, n);
      stream.synchronize();
      float[] c = dc.download();
      for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++) {
          double sum = 0;
          for (int p = 0; p < k; p++) {
            sum += (2.0 * x[i * k + p] + 0.5) * b[p * n + j];
          }
          // small integers and halves: every partial sum is exact in float
          assertEquals(sum, c[i * n + j], 0, "C[" + i + ", " + j + "]");
        }
      }
      assertEquals(1, device.stats().launches("cuBLAS.cublasSgemm"), device.stats().format());
    }
  }

  @Test
  void closedArraysAndStreamsAreRefused() {
    DeviceFloatArray a = device.allocFloats(4);
    a.close();
    try (DeviceFloatArray b = device.allocFloats(4); DeviceFloatArray c = device.allocFloats(4)) {
      IllegalStateException closed = assertThrows(IllegalStateException.class,
          () -> CudaBlas.sgemm(null, false, false, 2, 2, 2, a, 0, 2, b, 0, 2, 0f, c, 0, 2));
      assertTrue(closed.getMessage().contains("is closed"), closed.getMessage());
      CudaStream s = device.newStream();
      s.close();
      assertThrows(IllegalStateException.class,
          () -> CudaBlas.sgemm(s, false, false, 2, 2, 2, b, 0, 2, b, 0, 2, 0f, c, 0, 2));
      IllegalArgumentException outside = assertThrows(IllegalArgumentException.class,
          () -> CudaBlas.sgemm(null, false, false, 2, 2, 2, b, 1, 2, b, 0, 2, 0f, c, 0, 2));
      assertTrue(outside.getMessage().startsWith("CudaBlas.sgemm: a has 4 elements"), outside.getMessage());
    }
  }

  @Test
  void cublasLoadedAndAnswering() {
    assertTrue(CudaBlas.available());
    try (DeviceDoubleArray x = device.upload(new double[] {2});
        DeviceDoubleArray y = device.upload(new double[] {3});
        DeviceDoubleArray z = device.allocDoubles(1)) {
      CudaBlas.dgemm(device.defaultStream(), false, false, 1, 1, 1, x, 0, 1, y, 0, 1, 0, z, 0, 1);
      assertEquals(6.0, z.download()[0]);
    } catch (KilnException e) {
      fail("cuBLAS failed: " + e.getMessage(), e);
    }
  }

  // ---- the checks ----

  private static void checkFloat(Case c) {
    Random r = new Random(c.hashCode());
    double[] a = random(r, c.aLength());
    double[] b = random(r, c.bLength());
    double[] c0 = initialC(r, c);
    try (DeviceFloatArray da = device.upload(toFloats(a));
        DeviceFloatArray db = device.upload(toFloats(b));
        DeviceFloatArray dc = device.upload(toFloats(c0))) {
      if (c.batch == 1 && c.strideA == 0) {
        CudaBlas.sgemm(null, c.transA, c.transB, c.m, c.n, c.k, da, c.aOffset, c.lda, db, c.bOffset,
            c.ldb, (float) c.beta, dc, c.cOffset, c.ldc);
      } else {
        CudaBlas.sgemmBatched(null, c.batch, c.transA, c.transB, c.m, c.n, c.k, da, c.aOffset, c.lda,
            c.strideA, db, c.bOffset, c.ldb, c.strideB, (float) c.beta, dc, c.cOffset, c.ldc,
            c.strideC);
      }
      float[] got = dc.download();
      double[] result = new double[got.length];
      for (int i = 0; i < got.length; i++) {
        result[i] = got[i];
      }
      compare("sgemm " + c, c, a, b, c0, result, Math.ulp(1f));
    }
  }

  private static void checkDouble(Case c) {
    Random r = new Random(c.hashCode() + 1);
    double[] a = random(r, c.aLength());
    double[] b = random(r, c.bLength());
    double[] c0 = initialC(r, c);
    try (DeviceDoubleArray da = device.upload(a);
        DeviceDoubleArray db = device.upload(b);
        DeviceDoubleArray dc = device.upload(c0)) {
      if (c.batch == 1 && c.strideA == 0) {
        CudaBlas.dgemm(device.defaultStream(), c.transA, c.transB, c.m, c.n, c.k, da, c.aOffset,
            c.lda, db, c.bOffset, c.ldb, c.beta, dc, c.cOffset, c.ldc);
      } else {
        CudaBlas.dgemmBatched(device.defaultStream(), c.batch, c.transA, c.transB, c.m, c.n, c.k, da,
            c.aOffset, c.lda, c.strideA, db, c.bOffset, c.ldb, c.strideB, c.beta, dc, c.cOffset,
            c.ldc, c.strideC);
      }
      compare("dgemm " + c, c, a, b, c0, dc.download(), Math.ulp(1.0));
    }
  }

  /** C's array: UNTOUCHED everywhere, the product's elements NaN when beta is 0 (C must not be read). */
  private static double[] initialC(Random r, Case c) {
    double[] c0 = new double[(int) c.cLength()];
    java.util.Arrays.fill(c0, UNTOUCHED);
    for (int q = 0; q < c.batch; q++) {
      for (int i = 0; i < c.m; i++) {
        for (int j = 0; j < c.n; j++) {
          c0[c.cIndex(q, i, j)] = c.beta == 0 ? Double.NaN : r.nextDouble() * 2 - 1;
        }
      }
    }
    return c0;
  }

  private static void compare(String what, Case c, double[] a, double[] b, double[] c0,
      double[] got, double eps) {
    boolean[] product = new boolean[got.length];
    for (int q = 0; q < c.batch; q++) {
      for (int i = 0; i < c.m; i++) {
        for (int j = 0; j < c.n; j++) {
          double sum = 0;
          double magnitude = 0;
          for (int p = 0; p < c.k; p++) {
            double t = c.opA(a, q, i, p) * c.opB(b, q, p, j);
            sum += t;
            magnitude += Math.abs(t);
          }
          int at = c.cIndex(q, i, j);
          double expected = c.beta == 0 ? sum : sum + c.beta * c0[at];
          magnitude += c.beta == 0 ? 0 : Math.abs(c.beta * c0[at]);
          double bound = (c.k + 2) * eps * magnitude;
          double actual = got[at];
          if (!(Math.abs(actual - expected) <= bound)) {
            fail(what + ": C[" + q + "][" + i + ", " + j + "] (element " + at + ") is " + actual
                + ", expected " + expected + " within " + bound);
          }
          product[at] = true;
        }
      }
    }
    for (int e = 0; e < got.length; e++) {
      if (!product[e] && got[e] != UNTOUCHED) {
        fail(what + ": element " + e + " of C's array is outside the product but became " + got[e]);
      }
    }
  }

  private static double[] random(Random r, long length) {
    double[] x = new double[(int) length];
    for (int i = 0; i < x.length; i++) {
      x[i] = r.nextDouble() * 2 - 1;
    }
    return x;
  }

  private static float[] toFloats(double[] x) {
    float[] f = new float[x.length];
    for (int i = 0; i < x.length; i++) {
      f[i] = (float) x[i];
      x[i] = f[i]; // the reference uses the values the device gets
    }
    return f;
  }
}
