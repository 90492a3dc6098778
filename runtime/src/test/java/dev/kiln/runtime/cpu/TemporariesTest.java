package dev.kiln.runtime.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@link Temporaries}: arrays of the exact length, zero-filled unless asked otherwise, reused after
 * a frame that finished, dropped after one that did not, never shared by two open frames, at most
 * the pool's bound kept. Each test has a pool of its own, of strong references, so that neither
 * the other tests nor the collector change what it sees.
 */
class TemporariesTest {
  private static Temporaries.Pool pool(long bound) {
    return new Temporaries.Pool(bound, false);
  }

  @Test
  void anArrayComesBackZeroFilledToTheNextFrame() {
    Temporaries.Pool pool = pool(1 << 20);
    float[] first;
    try (Temporaries t = Temporaries.open(pool)) {
      first = t.floats(1000);
      assertEquals(1000, first.length);
      java.util.Arrays.fill(first, 7f);
      t.finished();
    }
    try (Temporaries t = Temporaries.open(pool)) {
      float[] again = t.floats(1000);
      assertSame(first, again, "the pooled array is reused");
      for (float v : again) {
        assertEquals(0f, v);
      }
      t.finished();
    }
    try (Temporaries t = Temporaries.open(pool)) {
      float[] unfilled = t.floats(1000, false);
      assertSame(first, unfilled);
      java.util.Arrays.fill(unfilled, 3f);
      t.finished();
    }
    try (Temporaries t = Temporaries.open(pool)) {
      assertEquals(3f, t.floats(1000, false)[999], "not zero-filled when the caller writes it all first");
    }
  }

  @Test
  void aFrameThatDidNotFinishDropsItsArrays() {
    Temporaries.Pool pool = pool(1 << 20);
    float[] first;
    try (Temporaries t = Temporaries.open(pool)) {
      first = t.floats(1000); // as when a kernel throws: its other chunks may still write this array
    }
    assertEquals(0, pool.pooledBytes());
    try (Temporaries t = Temporaries.open(pool)) {
      assertNotSame(first, t.floats(1000));
    }
  }

  @Test
  void twoOpenFramesNeverShareAnArray() {
    Temporaries.Pool pool = pool(1 << 20);
    try (Temporaries t = Temporaries.open(pool)) {
      t.doubles(500);
      t.doubles(500);
      t.finished();
    }
    try (Temporaries outer = Temporaries.open(pool); Temporaries inner = Temporaries.open(pool)) {
      double[] a = outer.doubles(500);
      double[] b = inner.doubles(500);
      double[] c = inner.doubles(500);
      assertNotSame(a, b);
      assertNotSame(b, c);
      assertNotSame(a, c);
    }
  }

  @Test
  void everyElementTypeAndEmptyArraysWhichAreNeverKept() {
    Temporaries.Pool pool = pool(1 << 20);
    try (Temporaries t = Temporaries.open(pool)) {
      assertEquals(3, t.ints(3).length);
      assertEquals(3, t.longs(3).length);
      assertEquals(3, t.shorts(3).length);
      assertEquals(3, t.bytes(3).length);
      assertEquals(3, t.booleans(3).length);
      assertEquals(0, t.floats(0).length);
      t.finished();
    }
    assertEquals(12 + 24 + 6 + 3 + 3, pool.pooledBytes());
  }

  @Test
  void aClosedFrameTakesNothing() {
    Temporaries t = Temporaries.open(pool(1 << 20));
    t.close();
    t.close(); // a second close does nothing
    assertThrows(IllegalStateException.class, () -> t.floats(4));
  }

  @Test
  void thePoolKeepsNoMoreThanItsBound() {
    Temporaries.Pool pool = pool(1000);
    float[] kept;
    try (Temporaries t = Temporaries.open(pool)) {
      kept = t.floats(100);
      t.floats(100);
      t.floats(300); // 1200 bytes: over the bound alone, never kept
      t.finished();
    }
    assertEquals(800, pool.pooledBytes(), "two arrays of 400 bytes kept");
    try (Temporaries t = Temporaries.open(pool)) {
      float[] a = t.floats(100);
      float[] b = t.floats(100);
      assertTrue(a == kept || b == kept, "the kept arrays are taken again");
      assertEquals(0, pool.pooledBytes());
      t.finished();
    }
    try (Temporaries t = Temporaries.open(pool)) {
      t.floats(200); // 800 bytes: with the 800 kept it would pass the bound, so the pool is emptied first
      t.finished();
    }
    assertEquals(800, pool.pooledBytes(), "only the last array is kept");
  }

  @Test
  void aPoolBoundOfZeroKeepsNothing() {
    Temporaries.Pool pool = pool(0);
    try (Temporaries t = Temporaries.open(pool)) {
      t.floats(10);
      t.floats(0);
      t.finished();
    }
    assertEquals(0, pool.pooledBytes());
  }
}
