package dev.kiln.runtime.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** {@link Temporaries}: arrays of the exact length, zero-filled, reused after a frame closes, never shared by two frames. */
class TemporariesTest {
  @Test
  void anArrayComesBackZeroFilledToTheNextFrame() {
    int n = 12_345;
    Temporaries.Pool pool = new Temporaries.Pool(1 << 20);
    float[] first;
    try (Temporaries t = Temporaries.open(pool)) {
      first = t.floats(n);
      assertEquals(n, first.length);
      java.util.Arrays.fill(first, 7f);
    }
    try (Temporaries t = Temporaries.open(pool)) {
      float[] again = t.floats(n);
      assertSame(first, again, "the pooled array is reused");
      for (float v : again) {
        assertEquals(0f, v);
      }
    }
  }

  @Test
  void twoOpenFramesNeverShareAnArray() {
    int n = 23_456;
    try (Temporaries outer = Temporaries.open(); Temporaries inner = Temporaries.open()) {
      double[] a = outer.doubles(n);
      double[] b = inner.doubles(n);
      double[] c = inner.doubles(n);
      assertNotSame(a, b);
      assertNotSame(b, c);
      assertNotSame(a, c);
    }
  }

  @Test
  void everyElementTypeAndEmptyArrays() {
    try (Temporaries t = Temporaries.open()) {
      assertEquals(3, t.ints(3).length);
      assertEquals(3, t.longs(3).length);
      assertEquals(3, t.shorts(3).length);
      assertEquals(3, t.bytes(3).length);
      assertEquals(3, t.booleans(3).length);
      assertEquals(0, t.floats(0).length);
    }
  }

  @Test
  void aClosedFrameTakesNothing() {
    Temporaries t = Temporaries.open();
    t.close();
    t.close(); // a second close does nothing
    assertThrows(IllegalStateException.class, () -> t.floats(4));
  }

  @Test
  void thePoolKeepsNoMoreThanItsBound() {
    Temporaries.Pool pool = new Temporaries.Pool(1000);
    float[] kept;
    try (Temporaries t = Temporaries.open(pool)) {
      kept = t.floats(100);
      t.floats(100);
      t.floats(300); // 1200 bytes: over the bound alone
    }
    assertEquals(800, pool.pooledBytes(), "two arrays of 400 bytes kept, the large one left to the collector");
    try (Temporaries t = Temporaries.open(pool)) {
      float[] a = t.floats(100);
      float[] b = t.floats(100);
      assertEquals(true, a == kept || b == kept, "the kept arrays are taken again");
      assertEquals(0, pool.pooledBytes());
      assertNotSame(a, b);
      t.floats(300);
    }
    assertEquals(800, pool.pooledBytes());
  }
}
