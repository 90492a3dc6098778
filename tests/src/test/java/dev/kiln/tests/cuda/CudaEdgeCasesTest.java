package dev.kiln.tests.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kiln.runtime.cuda.CudaDevice;
import dev.kiln.runtime.cuda.CudaRuntime;
import dev.kiln.runtime.cuda.DeviceFloatArray;
import dev.kiln.tests.ops.Reductions;
import dev.kiln.tests.ops.ReductionsKernels;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Edge cases of the device launchers that random inputs do not reach, compared bit for bit with
 * plain Java. Skipped, saying why, where there is no CUDA device.
 */
@Tag("gpu")
class CudaEdgeCasesTest {
  private CudaDevice device;

  @BeforeEach
  void needsCuda() {
    assumeTrue(CudaRuntime.available(), () -> "no CUDA here: " + CudaRuntime.unavailableReason());
    device = CudaRuntime.device();
  }

  /**
   * In-place calls on the device: the same check as the CPU launchers. An operator proved safe in
   * place runs and agrees with the plain method called the same way; a stencil whose output is its
   * input is refused, naming the operator and both arguments, and writes nothing.
   */
  @Test
  void inPlaceCallsAreRefusedUnlessProvedSafe() {
    float[] data = {1, 2, 3, 4, 5, 6, 7};
    float[] expected = data.clone();
    dev.kiln.tests.alias.InPlaceOps.scale(expected.length, expected, 3f, expected);
    try (DeviceFloatArray u = device.upload(data)) {
      dev.kiln.tests.alias.InPlaceOpsKernels.scale(device.defaultStream(), data.length, u, 3f, u);
      org.junit.jupiter.api.Assertions.assertArrayEquals(expected, u.download());
      IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
          () -> dev.kiln.tests.alias.InPlaceOpsKernels.stencil(device.defaultStream(), data.length, u, u));
      org.junit.jupiter.api.Assertions.assertTrue(
          e.getMessage().startsWith("stencil: @Out argument 'y' is the same array as argument 'x'"), e.getMessage());
      org.junit.jupiter.api.Assertions.assertArrayEquals(expected, u.download(), "nothing was written");
    }
  }

  /**
   * Integer arithmetic where C's differs from Java's (signed overflow, {@code MIN / -1}, {@code MIN
   * % -1}, {@code -MIN}, shifts of negative values and past the width; a row's int sum that wraps):
   * every pair of {@code IntegerArithmetic.EDGES}, Java's results bit for bit.
   */
  @Test
  void integerArithmeticIsJavas() {
    long[][] pairs = dev.kiln.tests.ops.IntegerArithmetic.edgePairs();
    int n = pairs[0].length;
    int[] a = dev.kiln.tests.ops.IntegerArithmetic.narrowed(pairs[0]);
    int[] b = dev.kiln.tests.ops.IntegerArithmetic.narrowed(pairs[1]);
    var s = device.defaultStream();
    int[][] expected = new int[7][n];
    dev.kiln.tests.ops.IntegerArithmetic.intOps(n, a, b, expected[0], expected[1], expected[2], expected[3],
        expected[4], expected[5], expected[6]);
    long[][] expectedLongs = new long[7][n];
    dev.kiln.tests.ops.IntegerArithmetic.longOps(n, pairs[0], pairs[1], expectedLongs[0], expectedLongs[1],
        expectedLongs[2], expectedLongs[3], expectedLongs[4], expectedLongs[5], expectedLongs[6]);
    dev.kiln.runtime.cuda.DeviceIntArray[] outs = new dev.kiln.runtime.cuda.DeviceIntArray[7];
    dev.kiln.runtime.cuda.DeviceLongArray[] longOuts = new dev.kiln.runtime.cuda.DeviceLongArray[7];
    try (dev.kiln.runtime.cuda.DeviceIntArray da = device.upload(a); dev.kiln.runtime.cuda.DeviceIntArray db = device.upload(b);
        dev.kiln.runtime.cuda.DeviceLongArray dla = device.upload(pairs[0]);
        dev.kiln.runtime.cuda.DeviceLongArray dlb = device.upload(pairs[1])) {
      for (int k = 0; k < 7; k++) {
        outs[k] = device.allocInts(n);
        longOuts[k] = device.allocLongs(n);
      }
      dev.kiln.tests.ops.IntegerArithmeticKernels.intOps(s, n, da, db, outs[0], outs[1], outs[2], outs[3], outs[4],
          outs[5], outs[6]);
      dev.kiln.tests.ops.IntegerArithmeticKernels.longOps(s, n, dla, dlb, longOuts[0], longOuts[1], longOuts[2],
          longOuts[3], longOuts[4], longOuts[5], longOuts[6]);
      String[] names = {"sum", "difference", "product", "quotient", "remainder", "negated", "shifted"};
      for (int k = 0; k < 7; k++) {
        org.junit.jupiter.api.Assertions.assertArrayEquals(expected[k], outs[k].download(), "int " + names[k]);
        org.junit.jupiter.api.Assertions.assertArrayEquals(expectedLongs[k], longOuts[k].download(), "long " + names[k]);
      }
      int[] lcg = new int[n];
      dev.kiln.tests.ops.IntegerArithmetic.lcg(n, a, lcg);
      dev.kiln.tests.ops.IntegerArithmeticKernels.lcg(s, n, da, outs[0]);
      org.junit.jupiter.api.Assertions.assertArrayEquals(lcg, outs[0].download(), "lcg");
      // rows of large ints whose sums wrap: 26 rows of 26, and one row of 5000
      for (int[] shape : new int[][] {{26, 26}, {1, 5000}}) {
        int rows = shape[0];
        int cols = shape[1];
        int[] x = new int[rows * cols];
        java.util.SplittableRandom random = new java.util.SplittableRandom(rows);
        for (int i = 0; i < x.length; i++) {
          x[i] = i < n ? a[i] : random.nextInt();
        }
        int[] sums = new int[rows];
        dev.kiln.tests.ops.IntegerArithmetic.rowSums(rows, cols, x, sums);
        try (dev.kiln.runtime.cuda.DeviceIntArray dx = device.upload(x);
            dev.kiln.runtime.cuda.DeviceIntArray ds = device.allocInts(rows)) {
          dev.kiln.tests.ops.IntegerArithmeticKernels.rowSums(s, rows, cols, dx, ds);
          org.junit.jupiter.api.Assertions.assertArrayEquals(sums, ds.download(), "row sums, " + rows + " x " + cols);
        }
      }
    } finally {
      for (int k = 0; k < 7; k++) {
        if (outs[k] != null) {
          outs[k].close();
        }
        if (longOuts[k] != null) {
          longOuts[k].close();
        }
      }
    }
  }

  /**
   * A vector kernel (saxpy: four workers a thread, 16-byte loads and stores) at sizes below, at and
   * past multiples of four, through its launcher; and with arrays that are not 16-byte aligned (device
   * allocations always are, so the arrays here start one to three floats into allocations, launched
   * with the raw addresses), where the kernel runs one worker at a time. Every result is plain
   * Java's, bit for bit, and nothing past the end is written.
   */
  @Test
  void vectorKernelsAgreeAtEverySizeAndAlignment() throws Exception {
    java.lang.reflect.Method address = jcuda.NativePointerObject.class.getDeclaredMethod("getNativePointer");
    address.setAccessible(true);
    dev.kiln.runtime.cuda.CudaKernel saxpy =
        device.kernel(dev.kiln.tests.ops.LinearKernels.class, "dev/kiln/tests/ops/Linear", "saxpy");
    float a = 1.75f;
    for (int n : new int[] {0, 1, 2, 3, 4, 5, 7, 8, 9, 1023, 1025, 5003}) {
      java.util.SplittableRandom random = new java.util.SplittableRandom(n);
      float[] x = new float[n + 4];
      float[] y = new float[n + 4];
      for (int i = 0; i < n + 4; i++) {
        x[i] = (float) random.nextDouble(-3, 3);
        y[i] = (float) random.nextDouble(-3, 3);
      }
      for (int offset = 0; offset < 4; offset++) {
        float[] xs = java.util.Arrays.copyOfRange(x, offset, offset + n);
        float[] ys = java.util.Arrays.copyOfRange(y, offset, offset + n);
        float[] expected = new float[n];
        dev.kiln.tests.ops.Linear.saxpy(n, a, xs, ys, expected);
        float[] sentinel = new float[n + 4];
        java.util.Arrays.fill(sentinel, -7f);
        try (DeviceFloatArray dx = device.upload(x); DeviceFloatArray dy = device.upload(y);
            DeviceFloatArray dout = device.upload(sentinel)) {
          if (offset == 0) {
            try (DeviceFloatArray ax = device.upload(xs); DeviceFloatArray ay = device.upload(ys);
                DeviceFloatArray aout = device.allocFloats(n)) {
              dev.kiln.tests.ops.LinearKernels.saxpy(device.defaultStream(), n, a, ax, ay, aout);
              org.junit.jupiter.api.Assertions.assertArrayEquals(expected, aout.download(), "aligned, n = " + n);
            }
          }
          long shift = 4L * offset;
          saxpy.launchGrid(device.defaultStream(), new long[] {(n + 3L) / 4L}, n, a,
              (long) address.invoke(dx.pointer()) + shift, (long) address.invoke(dy.pointer()) + shift,
              (long) address.invoke(dout.pointer()) + shift);
          float[] out = dout.download();
          for (int i = 0; i < n + 4; i++) {
            float want = i >= offset && i < offset + n ? expected[i - offset] : -7f;
            assertEquals(Float.floatToRawIntBits(want), Float.floatToRawIntBits(out[i]),
                "n = " + n + ", arrays " + offset + " floats into their allocations, element " + i);
          }
        }
      }
    }
  }

  /**
   * Row kernels keep a row of up to 8192 floats in shared memory after their first read of it;
   * longer rows are read from global memory every time. Rows of at most 2048 floats run the
   * kernels' short-row forms (an 8 KB cache, blocks of 64 threads). Both sides of the limit agree with plain
   * Java (sums in another order: within 1e-5).
   */
  @Test
  void rowsLongerThanTheSharedCacheAgreeToo() {
    // 1 to 2048: the short-row forms (an 8 KB cache, 64 threads a row); 2049 on: the long ones
    for (int n : new int[] {1, 255, 2047, 2048, 2049, 8192, 8193, 9000}) {
      int b = 3;
      java.util.SplittableRandom random = new java.util.SplittableRandom(n);
      float[] x = new float[b * n];
      for (int i = 0; i < x.length; i++) {
        x[i] = (float) random.nextDouble(-4, 4);
      }
      float[] softmax = new float[b * n];
      float[] centered = new float[b * n];
      dev.kiln.tests.ops.RowLoops.softmax(b, n, x, softmax);
      dev.kiln.tests.fusion.Loops.centeredScaled(b, n, x, centered);
      try (DeviceFloatArray dx = device.upload(x); DeviceFloatArray dy = device.allocFloats(b * n);
          DeviceFloatArray dz = device.allocFloats(b * n)) {
        dev.kiln.tests.ops.RowLoopsKernels.softmax(device.defaultStream(), b, n, dx, dy);
        dev.kiln.tests.fusion.LoopsKernels.centeredScaled(device.defaultStream(), b, n, dx, dz);
        assertClose("softmax, rows of " + n, softmax, dy.download());
        assertClose("centeredScaled, rows of " + n, centered, dz.download());
      }
    }
  }

  /**
   * A total over all workers with its scalar epilogue in one kernel: the epilogue runs in the thread
   * that stores the total (one segment) or that folds the segments' totals (several: the largest
   * size). Whole numbers, so every order of the sum gives Java's bits.
   */
  @Test
  void aTotalsScalarEpilogueRunsOnceTheTotalIsComplete() {
    int largest = 1 << 20;
    org.junit.jupiter.api.Assertions.assertTrue(dev.kiln.runtime.cuda.PartialResults.segments(1, largest) > 1,
        "the largest size runs as several segments, folded by a second kernel");
    for (int n : new int[] {0, 1, 130, 5003, largest}) {
      java.util.SplittableRandom random = new java.util.SplittableRandom(n);
      float[] x = new float[n];
      for (int i = 0; i < n; i++) {
        x[i] = random.nextInt(-2, 3);
      }
      float[] rms = {Float.NaN};
      float[] total = {0.5f};
      float[] inverse = {Float.NaN};
      dev.kiln.tests.fusion.Edges.rootMeanSquare(n, x, rms);
      dev.kiln.tests.fusion.Edges.inverseRootMeanSquare(n, 1e-3f, x, total, inverse);
      var s = device.defaultStream();
      try (DeviceFloatArray dx = device.upload(x); DeviceFloatArray drms = device.upload(new float[] {Float.NaN});
          DeviceFloatArray dtotal = device.upload(new float[] {0.5f});
          DeviceFloatArray dinverse = device.upload(new float[] {Float.NaN})) {
        dev.kiln.tests.fusion.EdgesKernels.rootMeanSquare(s, n, dx, drms);
        dev.kiln.tests.fusion.EdgesKernels.inverseRootMeanSquare(s, n, 1e-3f, dx, dtotal, dinverse);
        org.junit.jupiter.api.Assertions.assertArrayEquals(rms, drms.download(), "rootMeanSquare, N=" + n);
        org.junit.jupiter.api.Assertions.assertArrayEquals(total, dtotal.download(), "the total, N=" + n);
        org.junit.jupiter.api.Assertions.assertArrayEquals(inverse, dinverse.download(), "inverseRootMeanSquare, N=" + n);
      }
    }
  }

  /**
   * The training forms of a row kernel on the device: {@code softmaxSaving} stores each row's
   * maximum and sum of exponentials, and {@code softmaxGradSaved}, which reads them instead of
   * running those loops again, gives what the device's {@code softmaxGrad} gives, and the CPU's.
   */
  @Test
  void savedRowStatisticsServeTheDevicesBackwardPass() {
    for (int[] size : new int[][] {{1, 1}, {3, 5}, {37, 129}, {4, 3000}}) {
      int r = size[0];
      int n = size[1];
      float[] x = dev.kiln.tests.Data.floats(81, r * n, -10f, 10f);
      float[] dy = dev.kiln.tests.Data.floats(82, r * n);
      float[] y = new float[r * n];
      float[] max = new float[r];
      float[] sum = new float[r];
      float[] dx = new float[r * n];
      dev.kiln.tests.ops.NormalizationKernels.softmaxSaving(r, n, x, y, max, sum);
      dev.kiln.tests.ops.NormalizationKernels.softmaxGrad(r, n, x, y, dy, dx);
      var s = device.defaultStream();
      try (DeviceFloatArray dX = device.upload(x); DeviceFloatArray dDy = device.upload(dy);
          DeviceFloatArray dY = device.upload(new float[r * n]); DeviceFloatArray dMax = device.upload(new float[r]);
          DeviceFloatArray dSum = device.upload(new float[r]); DeviceFloatArray dDx = device.upload(new float[r * n]);
          DeviceFloatArray dDxPlain = device.upload(new float[r * n])) {
        dev.kiln.tests.ops.NormalizationKernels.softmaxSaving(s, r, n, dX, dY, dMax, dSum);
        dev.kiln.tests.ops.NormalizationKernels.softmaxGradSaved(s, r, n, dX, dY, dMax, dSum, dDy, dDx);
        dev.kiln.tests.ops.NormalizationKernels.softmaxGrad(s, r, n, dX, dY, dDy, dDxPlain);
        String at = "R=" + r + ", N=" + n;
        org.junit.jupiter.api.Assertions.assertArrayEquals(max, dMax.download(), "the saved maxima, " + at);
        assertClose("the saved sums, " + at, sum, dSum.download());
        // (the device adds a row in its own order: within CudaGradientAgreementTest's 2e-4)
        float[] onDevice = dDx.download();
        assertClose("softmaxGradSaved on the device against the CPU, " + at, dx, onDevice, 2e-4, 1e-5);
        org.junit.jupiter.api.Assertions.assertArrayEquals(dDxPlain.download(), onDevice,
            "softmaxGradSaved against softmaxGrad on the device, " + at);
      }
    }
  }

  private static void assertClose(String what, float[] expected, float[] actual) {
    assertClose(what, expected, actual, 1e-5, 1e-6);
  }

  /** Each element within {@code relative} of its own size plus {@code ofLargest} of the largest expected. */
  private static void assertClose(String what, float[] expected, float[] actual, double relative, double ofLargest) {
    double scale = 0;
    for (float v : expected) {
      scale = Math.max(scale, Math.abs(v));
    }
    for (int i = 0; i < expected.length; i++) {
      double err = Math.abs(expected[i] - actual[i]);
      if (!(err <= relative * Math.abs(expected[i]) + ofLargest * scale)) {
        org.junit.jupiter.api.Assertions.fail(what + ": element " + i + " is " + actual[i] + ", Java gives " + expected[i]);
      }
    }
  }

  /** -0.0 is the identity of a sum: a sum of -0.0 terms, or of none, leaves -0.0 as Java does. */
  /** Floats and doubles to int, long and short on the device, against the plain Java on the values where C differs. */
  @Test
  void conversionsToIntegersAreJavas() {
    int n = dev.kiln.tests.ops.Conversions.EDGES.length;
    float[] xf = new float[n];
    for (int i = 0; i < n; i++) {
      xf[i] = (float) dev.kiln.tests.ops.Conversions.EDGES[i];
    }
    double[] xd = dev.kiln.tests.ops.Conversions.EDGES.clone();
    var s = device.defaultStream();
    try (DeviceFloatArray df = device.upload(xf); dev.kiln.runtime.cuda.DeviceDoubleArray dd = device.upload(xd);
        dev.kiln.runtime.cuda.DeviceIntArray di = device.allocInts(n);
        dev.kiln.runtime.cuda.DeviceLongArray dl = device.allocLongs(n);
        dev.kiln.runtime.cuda.DeviceShortArray ds = device.allocShorts(n)) {
      int[] ints = new int[n];
      long[] longs = new long[n];
      short[] shorts = new short[n];
      dev.kiln.tests.ops.Conversions.floatsToInts(n, xf, ints);
      dev.kiln.tests.ops.ConversionsKernels.floatsToInts(s, n, df, di);
      assertEquals(java.util.Arrays.toString(ints), java.util.Arrays.toString(di.download()), "(int) of floats");
      dev.kiln.tests.ops.Conversions.doublesToInts(n, xd, ints);
      dev.kiln.tests.ops.ConversionsKernels.doublesToInts(s, n, dd, di);
      assertEquals(java.util.Arrays.toString(ints), java.util.Arrays.toString(di.download()), "(int) of doubles");
      dev.kiln.tests.ops.Conversions.floatsToLongs(n, xf, longs);
      dev.kiln.tests.ops.ConversionsKernels.floatsToLongs(s, n, df, dl);
      assertEquals(java.util.Arrays.toString(longs), java.util.Arrays.toString(dl.download()), "(long) of floats");
      dev.kiln.tests.ops.Conversions.doublesToLongs(n, xd, longs);
      dev.kiln.tests.ops.ConversionsKernels.doublesToLongs(s, n, dd, dl);
      assertEquals(java.util.Arrays.toString(longs), java.util.Arrays.toString(dl.download()), "(long) of doubles");
      dev.kiln.tests.ops.Conversions.floatsToShorts(n, xf, shorts);
      dev.kiln.tests.ops.ConversionsKernels.floatsToShorts(s, n, df, ds);
      assertEquals(java.util.Arrays.toString(shorts), java.util.Arrays.toString(ds.download()), "(short) of floats");
    }
  }

  @Test
  void sumsKeepNegativeZero() {
    for (int k : new int[] {0, 3, 5000}) {
      float[] x = new float[2 * k];
      java.util.Arrays.fill(x, -0f);
      float[] expected = {-0f, -0f};
      Reductions.rowSums(2, k, x, expected);
      try (DeviceFloatArray dx = device.upload(x); DeviceFloatArray ds = device.upload(new float[] {-0f, -0f})) {
        ReductionsKernels.rowSums(device.defaultStream(), 2, k, dx, ds);
        float[] actual = ds.download();
        for (int i = 0; i < 2; i++) {
          assertEquals(Float.floatToRawIntBits(expected[i]), Float.floatToRawIntBits(actual[i]),
              "rowSums with K=" + k + ": element " + i + " is " + actual[i] + ", Java gives " + expected[i]);
        }
      }
    }
  }

  /**
   * An accumulation at a data index: in range it agrees with plain Java; out of range the device
   * launcher throws ArrayIndexOutOfBoundsException naming the operator and the array, as Java
   * throws, and leaves the output as it was.
   */
  @Test
  void aDataIndexOutsideTheOutputThrowsAsInJava() {
    int n = 5000;
    int m = 37;
    int[] index = new java.util.SplittableRandom(143).ints(n, 0, m).toArray();
    float[] x = new float[n];
    java.util.Arrays.fill(x, 1f);
    float[] expected = new float[m];
    dev.kiln.tests.ops.Scatter.scatterAdd(n, m, index, x, expected);
    try (dev.kiln.runtime.cuda.DeviceIntArray di = device.upload(index); DeviceFloatArray dx = device.upload(x);
        DeviceFloatArray out = device.upload(new float[m])) {
      dev.kiln.tests.ops.ScatterKernels.scatterAdd(device.defaultStream(), n, m, di, dx, out);
      org.junit.jupiter.api.Assertions.assertArrayEquals(expected, out.download());
      index[4321] = m;
      di.upload(index);
      float[] before = out.download();
      ArrayIndexOutOfBoundsException e = org.junit.jupiter.api.Assertions.assertThrows(ArrayIndexOutOfBoundsException.class,
          () -> dev.kiln.tests.ops.ScatterKernels.scatterAdd(device.defaultStream(), n, m, di, dx, out));
      org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("scatterAdd") && e.getMessage().contains("'out'"),
          e.getMessage());
      org.junit.jupiter.api.Assertions.assertArrayEquals(before, out.download());
    }
  }

  /**
   * An affine read that is out of bounds only for some arguments ({@code x[i + k]}: past the end
   * for the last k workers when k > 0, so not a compile error): in range it agrees with plain Java;
   * out of range the kernel reads 0 and flags it, and the next synchronising call throws, naming
   * the kernel, where Java throws ArrayIndexOutOfBoundsException.
   */
  @Test
  void anAffineReadOutOfBoundsForSomeArgumentsIsReported() {
    int n = 1000;
    float[] x = new float[n];
    for (int i = 0; i < n; i++) {
      x[i] = i * 0.25f;
    }
    float[] expected = new float[n];
    dev.kiln.tests.bounds.Shifts.shifted(n, x, 0, expected);
    try (DeviceFloatArray dx = device.upload(x); DeviceFloatArray dy = device.allocFloats(n)) {
      dev.kiln.tests.bounds.ShiftsKernels.shifted(device.defaultStream(), n, dx, 0, dy);
      org.junit.jupiter.api.Assertions.assertArrayEquals(expected, dy.download());
      org.junit.jupiter.api.Assertions.assertThrows(ArrayIndexOutOfBoundsException.class,
          () -> dev.kiln.tests.bounds.Shifts.shifted(n, x, 3, new float[n]));
      dev.kiln.tests.bounds.ShiftsKernels.shifted(device.defaultStream(), n, dx, 3, dy);
      dev.kiln.runtime.KilnException e = org.junit.jupiter.api.Assertions.assertThrows(dev.kiln.runtime.KilnException.class,
          () -> device.defaultStream().synchronize());
      org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("ArrayIndexOutOfBoundsException")
          && e.getMessage().contains("Shifts.shifted"), e.getMessage());
      dev.kiln.tests.bounds.ShiftsKernels.shifted(device.defaultStream(), n, dx, 0, dy);
      org.junit.jupiter.api.Assertions.assertArrayEquals(expected, dy.download()); // the flag was cleared
    }
  }

  /**
   * A write at {@code i + k}, out of the array for some {@code k} only (a KILN049 warning at
   * compile time): in range it agrees with plain Java; out of range the kernel writes nothing there,
   * flags it, and the next synchronising call throws naming the operator, where a GPU would write
   * past the array and Java throws ArrayIndexOutOfBoundsException.
   */
  @Test
  void anAffineWriteOutOfBoundsForSomeArgumentsIsReported() {
    int n = 1000;
    float[] x = new float[n];
    for (int i = 0; i < n; i++) {
      x[i] = i * 0.5f;
    }
    float[] expected = new float[n + 8];
    dev.kiln.tests.bounds.Shifts.shiftedWrite(n, x, 5, expected);
    try (DeviceFloatArray dx = device.upload(x); DeviceFloatArray dy = device.allocFloats(n + 8)) {
      dy.zero();
      dev.kiln.tests.bounds.ShiftsKernels.shiftedWrite(device.defaultStream(), n, dx, 5, dy);
      org.junit.jupiter.api.Assertions.assertArrayEquals(expected, dy.download());
      org.junit.jupiter.api.Assertions.assertThrows(ArrayIndexOutOfBoundsException.class,
          () -> dev.kiln.tests.bounds.Shifts.shiftedWrite(n, x, 9, new float[n + 8]));
      dev.kiln.tests.bounds.ShiftsKernels.shiftedWrite(device.defaultStream(), n, dx, 9, dy);
      dev.kiln.runtime.KilnException e = org.junit.jupiter.api.Assertions.assertThrows(dev.kiln.runtime.KilnException.class,
          () -> device.defaultStream().synchronize());
      org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("ArrayIndexOutOfBoundsException")
          && e.getMessage().contains("Shifts.shiftedWrite"), e.getMessage());
      dy.zero();
      dev.kiln.tests.bounds.ShiftsKernels.shiftedWrite(device.defaultStream(), n, dx, 5, dy);
      org.junit.jupiter.api.Assertions.assertArrayEquals(expected, dy.download()); // the flag was cleared
    }
  }

  /**
   * A read at a data index: in range it agrees with plain Java; out of range the kernel reads 0 and
   * flags it, and the next synchronising call throws, naming the kernel, where Java would throw
   * ArrayIndexOutOfBoundsException.
   */
  @Test
  void aDataIndexOutsideATableIsReportedAtTheNextSynchronisation() {
    int n = 300;
    int m = 50;
    int d = 7;
    int[] index = new java.util.SplittableRandom(145).ints(n, 0, m).toArray();
    float[] table = new float[m * d];
    for (int i = 0; i < table.length; i++) {
      table[i] = i * 0.5f;
    }
    float[] expected = new float[n * d];
    dev.kiln.tests.ops.Scatter.gatherRows(n, m, d, index, table, expected);
    try (dev.kiln.runtime.cuda.DeviceIntArray di = device.upload(index); DeviceFloatArray dt = device.upload(table);
        DeviceFloatArray out = device.allocFloats((long) n * d)) {
      dev.kiln.tests.ops.ScatterKernels.gatherRows(device.defaultStream(), n, m, d, di, dt, out);
      org.junit.jupiter.api.Assertions.assertArrayEquals(expected, out.download());
      index[123] = m;
      di.upload(index);
      dev.kiln.tests.ops.ScatterKernels.gatherRows(device.defaultStream(), n, m, d, di, dt, out);
      dev.kiln.runtime.KilnException e = org.junit.jupiter.api.Assertions.assertThrows(dev.kiln.runtime.KilnException.class,
          () -> device.defaultStream().synchronize());
      org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("ArrayIndexOutOfBoundsException")
          && e.getMessage().contains("Scatter.gatherRows"), e.getMessage());
      index[123] = 0;
      di.upload(index);
      dev.kiln.tests.ops.ScatterKernels.gatherRows(device.defaultStream(), n, m, d, di, dt, out);
      float[] again = out.download(); // the flag was cleared: the device goes on
      expected[123 * d] = table[0];
      org.junit.jupiter.api.Assertions.assertEquals(table[0], again[123 * d]);
    }
  }

  /**
   * Data indices that reach a read through a loop: a read inside a loop carrying a sum (an embedding
   * bag), and a loop whose bounds are data (CSR rows). In range both agree with Java; out of range the
   * next synchronising call throws.
   */
  @Test
  void dataIndicesThroughLoopsAreChecked() {
    float[] table = {1, 2, 4};
    float[] values = {1, 2, 4, 8, 16};
    int[] start = {0, 2, 2};
    try (dev.kiln.runtime.cuda.DeviceIntArray index = device.upload(new int[] {0, 2, 2, 1, 0, 0});
        DeviceFloatArray dt = device.upload(table); DeviceFloatArray out = device.allocFloats(3);
        dev.kiln.runtime.cuda.DeviceIntArray ds = device.upload(start);
        dev.kiln.runtime.cuda.DeviceIntArray de = device.upload(new int[] {2, 2, 5});
        DeviceFloatArray dv = device.upload(values)) {
      float[] expected = new float[3];
      dev.kiln.tests.ops.Scatter.bagSums(3, 2, 3, new int[] {0, 2, 2, 1, 0, 0}, table, expected);
      dev.kiln.tests.ops.ScatterKernels.bagSums(device.defaultStream(), 3, 2, 3, index, dt, out);
      org.junit.jupiter.api.Assertions.assertArrayEquals(expected, out.download());
      index.upload(new int[] {0, 2, 3, 1, 0, 0});
      dev.kiln.tests.ops.ScatterKernels.bagSums(device.defaultStream(), 3, 2, 3, index, dt, out);
      org.junit.jupiter.api.Assertions.assertThrows(dev.kiln.runtime.KilnException.class, out::download);

      dev.kiln.tests.ops.Scatter.csrRowSums(3, 5, start, new int[] {2, 2, 5}, values, expected);
      dev.kiln.tests.ops.ScatterKernels.csrRowSums(device.defaultStream(), 3, 5, ds, de, dv, out);
      org.junit.jupiter.api.Assertions.assertArrayEquals(expected, out.download());
      de.upload(new int[] {2, 2, 6});
      dev.kiln.tests.ops.ScatterKernels.csrRowSums(device.defaultStream(), 3, 5, ds, de, dv, out);
      dev.kiln.runtime.KilnException e = org.junit.jupiter.api.Assertions.assertThrows(dev.kiln.runtime.KilnException.class,
          () -> device.defaultStream().synchronize());
      org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("Scatter.csrRowSums"), e.getMessage());
    }
  }

  /**
   * Counter-based random numbers on the device draw the plain Java's bits: uniform noise (one
   * stream, an offset), dropout's mask, normal noise (Kiln's own float log and cos), and draws per
   * row and column inside a row kernel's shared loop; the row totals are sums, added in another
   * order on the device (within 1e-5).
   */
  @Test
  void randomNumbersAreTheSourcesBits() {
    java.util.SplittableRandom random = new java.util.SplittableRandom(2027);
    int n = 30_011;
    float[] x = new float[n];
    for (int i = 0; i < n; i++) {
      x[i] = (float) random.nextDouble(-1, 1);
    }
    float[] expected = new float[n];
    dev.kiln.tests.ops.RandomOps.noise(n, 2026, 5, expected);
    try (DeviceFloatArray y = device.allocFloats(n)) {
      dev.kiln.tests.ops.RandomOpsKernels.noise(device.defaultStream(), n, 2026, 5, y);
      org.junit.jupiter.api.Assertions.assertArrayEquals(expected, y.download(), "noise");
    }
    dev.kiln.tests.ops.RandomOps.dropout(n, 0.25f, 11, x, expected);
    try (DeviceFloatArray dx = device.upload(x); DeviceFloatArray y = device.allocFloats(n)) {
      dev.kiln.tests.ops.RandomOpsKernels.dropout(device.defaultStream(), n, 0.25f, 11, dx, y);
      org.junit.jupiter.api.Assertions.assertArrayEquals(expected, y.download(), "dropout");
      dev.kiln.tests.ops.RandomOps.gaussianNoise(n, 7, 0.5f, x, expected);
      dev.kiln.tests.ops.RandomOpsKernels.gaussianNoise(device.defaultStream(), n, 7, 0.5f, dx, y);
      org.junit.jupiter.api.Assertions.assertArrayEquals(expected, y.download(), "gaussianNoise");
    }
    int b = 9;
    int k = 301;
    float[] rows = java.util.Arrays.copyOf(x, b * k);
    float[] jittered = new float[b * k];
    float[] totals = new float[b];
    dev.kiln.tests.ops.RandomOps.jitterRows(b, k, 5, rows, jittered, totals);
    try (DeviceFloatArray dx = device.upload(rows); DeviceFloatArray y = device.allocFloats(b * k);
        DeviceFloatArray t = device.allocFloats(b)) {
      dev.kiln.tests.ops.RandomOpsKernels.jitterRows(device.defaultStream(), b, k, 5, dx, y, t);
      org.junit.jupiter.api.Assertions.assertArrayEquals(jittered, y.download(), "jitterRows");
      org.junit.jupiter.api.Assertions.assertArrayEquals(totals, t.download(), 1e-5f * k, "jitterRows' totals");
    }
  }
}
