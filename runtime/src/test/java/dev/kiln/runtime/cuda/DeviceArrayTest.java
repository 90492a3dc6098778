package dev.kiln.runtime.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Device arrays over {@link FakeMemory}: lengths, round trips, closing. No GPU needed. */
class DeviceArrayTest {
  private final FakeMemory memory = new FakeMemory();

  @Test
  void roundTripsEachElementType() {
    try (DeviceFloatArray f = new DeviceFloatArray(memory, 3);
        DeviceDoubleArray d = new DeviceDoubleArray(memory, 2);
        DeviceIntArray i = new DeviceIntArray(memory, 4)) {
      f.upload(new float[] {1.5f, -2f, 3.25f});
      d.upload(new double[] {Math.PI, -0.0});
      i.upload(new int[] {1, -2, Integer.MAX_VALUE, Integer.MIN_VALUE});
      assertArrayEquals(new float[] {1.5f, -2f, 3.25f}, f.download());
      assertArrayEquals(new double[] {Math.PI, -0.0}, d.download());
      int[] into = new int[4];
      i.download(into);
      assertArrayEquals(new int[] {1, -2, Integer.MAX_VALUE, Integer.MIN_VALUE}, into);
      assertEquals(12, f.byteSize());
      assertEquals(16, d.byteSize());
      assertEquals(4, f.elementBytes());
      assertEquals(8, d.elementBytes());
      assertEquals(4, i.elementBytes());
    }
    assertEquals(3, memory.allocations);
    assertEquals(3, memory.frees);
  }

  @Test
  void zeroClears() {
    try (DeviceIntArray i = new DeviceIntArray(memory, 3)) {
      i.upload(new int[] {7, 8, 9});
      i.zero();
      assertArrayEquals(new int[3], i.download());
    }
  }

  @Test
  void lengthMismatchNamesBothLengths() {
    try (DeviceFloatArray f = new DeviceFloatArray(memory, 10)) {
      IllegalArgumentException up =
          assertThrows(IllegalArgumentException.class, () -> f.upload(new float[9]));
      assertTrue(up.getMessage().contains("length 9"), up.getMessage());
      assertTrue(up.getMessage().contains("length 10"), up.getMessage());
      assertTrue(up.getMessage().startsWith("upload to float device array #"), up.getMessage());
      IllegalArgumentException down =
          assertThrows(IllegalArgumentException.class, () -> f.download(new float[11]));
      assertTrue(down.getMessage().contains("length 11") && down.getMessage().contains("length 10"),
          down.getMessage());
      assertThrows(IllegalArgumentException.class, () -> f.upload(null));
    }
    try (DeviceDoubleArray d = new DeviceDoubleArray(memory, 2);
        DeviceIntArray i = new DeviceIntArray(memory, 2)) {
      assertThrows(IllegalArgumentException.class, () -> d.upload(new double[3]));
      assertThrows(IllegalArgumentException.class, () -> i.download(new int[1]));
    }
  }

  @Test
  void closeIsIdempotentAndUseAfterCloseNamesTheArray() {
    DeviceFloatArray f = new DeviceFloatArray(memory, 5);
    String name = f.toString();
    f.close();
    f.close();
    assertTrue(f.isClosed());
    assertEquals(1, memory.frees);
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> f.upload(new float[5]));
    assertTrue(e.getMessage().startsWith(name + " is closed"), e.getMessage());
    assertThrows(IllegalStateException.class, f::download);
    assertThrows(IllegalStateException.class, f::argument);
    assertThrows(IllegalStateException.class, f::pointer);
    assertThrows(IllegalStateException.class, f::zero);
    assertEquals(5, f.length());
  }

  @Test
  void emptyArraysAllocateNothingAndStillWork() {
    try (DeviceDoubleArray d = new DeviceDoubleArray(memory, 0)) {
      d.upload(new double[0]);
      assertEquals(0, d.download().length);
      d.zero();
      assertNotNull(d.argument());
    }
    assertEquals(0, memory.allocations);
    assertEquals(0, memory.frees);
  }

  @Test
  void negativeAndOversizedLengthsAreRefused() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new DeviceIntArray(memory, -1));
    assertTrue(e.getMessage().contains("-1"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new DeviceDoubleArray(memory, Long.MAX_VALUE / 4));
    assertEquals(0, memory.allocations);
  }

  @Test
  void anArrayTooLongForJavaCannotBeDownloadedWhole() {
    FakeMemory lazy = new FakeMemory() {
      @Override
      public synchronized jcuda.driver.CUdeviceptr allocate(long bytes, String what) {
        return new jcuda.driver.CUdeviceptr();
      }

      @Override
      public synchronized void free(jcuda.driver.CUdeviceptr pointer, long bytes, String what) {}
    };
    try (DeviceIntArray huge = new DeviceIntArray(lazy, 3L << 30)) {
      IllegalStateException e = assertThrows(IllegalStateException.class, huge::download);
      assertTrue(e.getMessage().contains("longer than a Java array"), e.getMessage());
    }
  }

  @Test
  void aFailedAllocationLeavesNothingBehind() {
    memory.failAbove = 100;
    assertThrows(dev.kiln.runtime.KilnException.class, () -> new DeviceFloatArray(memory, 1000));
    assertEquals(0, memory.allocations);
    assertFalse(memory.live.size() > 0);
  }
}
