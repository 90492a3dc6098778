package dev.kiln.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.testing.Agreement;
import dev.kiln.runtime.ByteTensor;
import dev.kiln.runtime.Device;
import dev.kiln.runtime.DoubleTensor;
import dev.kiln.runtime.FloatTensor;
import dev.kiln.runtime.IntTensor;
import dev.kiln.runtime.Kiln;
import dev.kiln.runtime.LongTensor;
import dev.kiln.runtime.ShortTensor;
import dev.kiln.tests.fusion.Composites;
import dev.kiln.tests.fusion.CompositesKernels;
import dev.kiln.tests.fusion.Prims;
import dev.kiln.tests.fusion.PrimsKernels;
import dev.kiln.tests.ops.Activations;
import dev.kiln.tests.ops.ActivationsKernels;
import dev.kiln.tests.ops.Layout;
import dev.kiln.tests.ops.LayoutKernels;
import dev.kiln.tests.ops.RandomOps;
import dev.kiln.tests.ops.RandomOpsKernels;
import dev.kiln.tests.types.LongArrays;
import dev.kiln.tests.types.LongArraysKernels;
import dev.kiln.tests.types.NarrowArrays;
import dev.kiln.tests.types.NarrowArraysKernels;
import org.junit.jupiter.api.Test;

/**
 * The device-agnostic launchers: the same calls with {@link FloatTensor}s run on {@link
 * Kiln#device()}. In the test JVM that is the CPU; {@code EmulatedGpuTest} runs this class again
 * with {@code -Dkiln.device=cuda} on the emulated driver, where the same code runs the CUDA kernels,
 * the tensors' values stay on the device between calls, and come back only when read.
 */
class TensorLaunchersTest {
  private static final int B = 6;
  private static final int N = 300;

  @Test
  void aChainOfCallsRunsOnTheDeviceAndAgreesWithPlainJava() {
    Device device = Kiln.device();
    boolean cuda = device == Device.CUDA;
    float[] data = Data.floats(31, B * N, -2f, 2f);
    float[] noisy = new float[B * N];
    RandomOps.gaussianNoise(B * N, 7, 0.5f, data, noisy);
    float[] expected = new float[B * N];
    Composites.softmax(B, N, noisy, expected);

    try (FloatTensor x = FloatTensor.of(data);
        FloatTensor y = FloatTensor.zeros(B * N);
        FloatTensor z = FloatTensor.zeros(B * N)) {
      RandomOpsKernels.gaussianNoise(B * N, 7, 0.5f, x, y);
      // the output is current where it was computed, and only there; the input is on both sides
      assertEquals(cuda, y.isCurrentOnDevice(), y.toString());
      assertEquals(!cuda, y.isCurrentOnHost(), y.toString());
      assertTrue(x.isCurrentOnHost());
      CompositesKernels.softmax(B, N, y, z); // a fused composite, reading y where it is
      assertEquals(!cuda, y.isCurrentOnHost(), "y was not copied back to run the second call: " + y);
      float[] got = z.toArray();
      assertTrue(z.isCurrentOnHost());
      if (cuda) {
        Agreement.assertClose(expected, got, 1e-5, 1e-6);
      } else {
        Agreement.assertSame(expected, got);
      }
      Agreement.assertSame(data, x.toArray()); // the input is unchanged
    }
  }

  @Test
  void theArrayLaunchersAndTheTensorLaunchersGiveTheSameOnTheCpu() {
    float[] data = Data.floats(32, 1000, -1f, 1f);
    float[] viaArrays = new float[1000];
    RandomOpsKernels.dropout(1000, 0.25f, 11, data, viaArrays);
    try (FloatTensor x = FloatTensor.of(data); FloatTensor y = FloatTensor.zeros(1000)) {
      RandomOpsKernels.dropout(1000, 0.25f, 11, x, y);
      float[] viaTensors = y.toArray();
      if (Kiln.device() == Device.CPU) {
        Agreement.assertSame(viaArrays, viaTensors);
      } else {
        Agreement.assertClose(viaArrays, viaTensors, 1e-6, 0);
      }
    }
  }

  /**
   * An elementwise operator's map launcher on tensors: a tensor of length 1 broadcast, the result
   * current where it was computed, and then mapped again from there (gelu after leakyRelu).
   */
  @Test
  void elementwiseMapsTakeTensors() {
    boolean cuda = Kiln.device() == Device.CUDA;
    float[] data = Data.floats(33, 1000, -3f, 3f);
    float[] expected = new float[1000];
    for (int i = 0; i < 1000; i++) {
      expected[i] = Activations.gelu(Activations.leakyRelu(data[i], 0.1f));
    }
    try (FloatTensor x = FloatTensor.of(data);
        FloatTensor slope = FloatTensor.of(0.1f);
        FloatTensor y = FloatTensor.zeros(1000);
        FloatTensor z = FloatTensor.zeros(1000)) {
      ActivationsKernels.leakyRelu(x, slope, y);
      assertEquals(cuda, y.isCurrentOnDevice(), y.toString());
      assertEquals(!cuda, y.isCurrentOnHost(), y.toString());
      ActivationsKernels.gelu(y, z);
      float[] got = z.toArray();
      if (cuda) {
        Agreement.assertClose(expected, got, 1e-6, 1e-7);
      } else {
        Agreement.assertSame(expected, got);
      }
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> ActivationsKernels.gelu(x, (FloatTensor) null));
      assertTrue(e.getMessage().contains("gelu") && e.getMessage().contains("'out'"), e.getMessage());
    }
  }

  /**
   * Operators whose arrays are not all floats take tensors of their element types: a gather at
   * {@code int} indices (the indices stay where they are between two calls), a map over {@code
   * double}s, a hash over {@code long}s, wrapping {@code byte} and {@code short} arithmetic; each
   * exactly the plain Java's on either device.
   */
  @Test
  void arraysOfEveryTypeTakeTheirTensors() {
    boolean cuda = Kiln.device() == Device.CUDA;
    float[] table = Data.floats(34, 50, -1f, 1f);
    int[] ids = Data.ints(35, 300, 0, 50);
    float[] gathered = new float[300];
    Layout.gather(50, 300, table, ids, gathered);
    try (FloatTensor x = FloatTensor.of(table); IntTensor idx = IntTensor.of(ids); FloatTensor out = FloatTensor.zeros(300)) {
      LayoutKernels.gather(50, 300, x, idx, out);
      assertEquals(cuda, idx.isCurrentOnDevice(), idx.toString());
      assertTrue(idx.isCurrentOnHost(), "an input stays current where it was: " + idx);
      Agreement.assertSame(gathered, out.toArray());
      assertArrayEquals(ids, idx.toArray());
    }

    double[] values = new double[257];
    for (int i = 0; i < values.length; i++) {
      values[i] = Math.scalb(i - 128.5, i % 7 - 3);
    }
    double[] squared = new double[values.length];
    Prims.squareD(values.length, values, squared);
    try (DoubleTensor x = DoubleTensor.of(values); DoubleTensor y = DoubleTensor.zeros(values.length)) {
      PrimsKernels.squareD(values.length, x, y);
      assertEquals(cuda, y.isCurrentOnDevice(), y.toString());
      assertArrayEquals(squared, y.toArray());
    }

    long[] longs = {0L, 1L, -1L, Long.MAX_VALUE, Long.MIN_VALUE, 0x1234_5678_9ABC_DEF0L, 42L};
    long[] mixed = new long[longs.length];
    LongArrays.mix(longs.length, longs, 2026L, mixed);
    try (LongTensor x = LongTensor.of(longs); LongTensor y = LongTensor.zeros(longs.length)) {
      LongArraysKernels.mix(longs.length, x, 2026L, y);
      assertArrayEquals(mixed, y.toArray());
      assertEquals(Long.MAX_VALUE, x.get(3));
    }
    byte[] a = {0, 1, -1, 127, -128, 64, 3};
    short[] b = {0, 300, -300, 32767, -32768, 1000, 7};
    byte[] sums = new byte[a.length];
    short[] products = new short[a.length];
    NarrowArrays.wrap(a.length, a, b, sums, products);
    try (ByteTensor ta = ByteTensor.of(a); ShortTensor tb = ShortTensor.of(b); ByteTensor ts = ByteTensor.zeros(a.length);
        ShortTensor tp = ShortTensor.zeros(a.length)) {
      NarrowArraysKernels.wrap(a.length, ta, tb, ts, tp);
      assertArrayEquals(sums, ts.toArray());
      assertArrayEquals(products, tp.toArray());
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> LayoutKernels.gather(50, 300, FloatTensor.of(table), (IntTensor) null, FloatTensor.zeros(300)));
    assertTrue(e.getMessage().contains("gather") && e.getMessage().contains("'idx'"), e.getMessage());
    IllegalArgumentException copy = assertThrows(IllegalArgumentException.class, () -> IntTensor.zeros(3).copyFrom(new int[2]));
    assertTrue(copy.getMessage().contains("IntTensor.copyFrom: 2 values for a tensor of 3"), copy.getMessage());
  }

  @Test
  void misuseNamesTheOperatorAndTheArgument() {
    try (FloatTensor y = FloatTensor.zeros(4)) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> RandomOpsKernels.gaussianNoise(4, 1, 1f, (FloatTensor) null, y));
      assertTrue(e.getMessage().contains("gaussianNoise") && e.getMessage().contains("'x'"), e.getMessage());
      IllegalArgumentException wrong = assertThrows(IllegalArgumentException.class,
          () -> RandomOpsKernels.gaussianNoise(5, 1, 1f, FloatTensor.zeros(5), y));
      assertTrue(wrong.getMessage().contains("gaussianNoise") && wrong.getMessage().contains("'y'"), wrong.getMessage());
    }
    FloatTensor closed = FloatTensor.of(1f, 2f);
    closed.close();
    assertArrayEquals(new float[] {1f, 2f}, closed.toArray(), "a closed tensor's values stay readable");
    assertFalse(closed.isCurrentOnDevice());
  }
}
