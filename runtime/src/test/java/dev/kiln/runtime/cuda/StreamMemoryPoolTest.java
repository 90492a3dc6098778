package dev.kiln.runtime.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kiln.runtime.KilnException;
import org.junit.jupiter.api.Test;

/** A stream's temporaries over {@link FakeMemory}: reuse by size, the cap, release. No GPU needed. */
class StreamMemoryPoolTest {
  private final FakeMemory memory = new FakeMemory();
  private final StreamMemoryPool pool = new StreamMemoryPool(memory, 8 * 4096);

  @Test
  void aClosedTemporaryServesTheNextOfItsSize() {
    DeviceFloatArray first = new DeviceFloatArray(pool, 100);
    var pointer = first.pointer();
    first.close();
    assertEquals(400, pool.cachedBytes());
    try (DeviceFloatArray second = new DeviceFloatArray(pool, 100)) {
      assertSame(pointer, second.pointer());
      assertEquals(0, pool.cachedBytes());
    }
    assertEquals(1, memory.allocations);
    assertEquals(0, memory.frees);
  }

  @Test
  void otherSizesAllocateAfresh() {
    new DeviceFloatArray(pool, 100).close();
    try (DeviceIntArray other = new DeviceIntArray(pool, 99)) {
      assertEquals(2, memory.allocations);
    }
    assertEquals(400 + 396, pool.cachedBytes());
  }

  @Test
  void copiesAndZeroFillGoToTheDevice() {
    try (DeviceFloatArray a = new DeviceFloatArray(pool, 3)) {
      a.upload(new float[] {1, 2, 3});
      assertArrayEquals(new float[] {1, 2, 3}, a.download());
      a.zero();
      assertArrayEquals(new float[3], a.download());
    }
  }

  @Test
  void keepsAtMostAnEighthOfTheDevice() {
    // the device here has 32768 bytes: 4096 may stay cached
    new DeviceFloatArray(pool, 1000).close();
    new DeviceFloatArray(pool, 25).close(); // 4000 + 100 > 4096: freed at once
    assertEquals(4000, pool.cachedBytes());
    assertEquals(1, memory.frees);
  }

  @Test
  void anAllocationThatFailsFreesTheCacheAndTriesAgain() {
    memory.capacity = 4000;
    new DeviceFloatArray(pool, 600).close(); // 2400 cached
    try (DeviceFloatArray big = new DeviceFloatArray(pool, 500)) { // 2000 more: only after the cache is freed
      assertEquals(0, pool.cachedBytes());
      assertEquals(1, memory.frees);
    }
    memory.capacity = 100;
    KilnException e = assertThrows(KilnException.class, () -> new DeviceFloatArray(pool, 501));
    assertEquals(true, e.getMessage().contains("out of memory"), e.getMessage());
    assertEquals(0, pool.cachedBytes()); // freed for the second try
  }

  @Test
  void closingFreesTheCacheAndLaterReleases() {
    DeviceFloatArray kept = new DeviceFloatArray(pool, 10);
    new DeviceFloatArray(pool, 20).close();
    pool.close();
    assertEquals(0, pool.cachedBytes());
    assertEquals(1, memory.frees);
    kept.close();
    assertEquals(2, memory.frees);
    assertEquals(0, memory.live.size());
  }
}
