package dev.kiln.runtime.simd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Where a vector loop starts: on a boundary for long loops, never past a vector's worth of iterations. */
class AlignmentTest {
  @Test
  void theHeaderIsWhatTheJvmSays() throws ReflectiveOperationException {
    int bytes = Class.forName("sun.misc.Unsafe").getField("ARRAY_FLOAT_BASE_OFFSET").getInt(null);
    assertEquals(bytes / Float.BYTES, Alignment.HEADER_FLOATS);
  }

  @Test
  void aLongLoopStartsWhereItsAccessLandsOnAVectorBoundary() {
    for (int lanes : new int[] {4, 8, 16}) {
      int end = 5000;
      for (int k = 0; k < 40; k++) {
        for (int offset = -3; offset < 40; offset++) {
          int index = k + offset; // the access's element at iteration k
          int start = Alignment.start(k, end, index, lanes);
          assertTrue(start >= k && start < k + lanes, lanes + " lanes from " + k + ": " + start);
          if (Alignment.ENABLED) {
            assertEquals(0, Math.floorMod(index + (start - k) + Alignment.HEADER_FLOATS, lanes),
                lanes + " lanes, k=" + k + ", index " + index);
          } else {
            assertEquals(k, start);
          }
        }
      }
    }
  }

  @Test
  void aShortLoopStartsAtItsFirstIteration() {
    for (int lanes : new int[] {4, 8, 16}) {
      int shortest = Alignment.MIN_VECTORS * lanes;
      assertEquals(7, Alignment.start(7, 7 + shortest - 1, 1, lanes));
      assertEquals(7, Alignment.start(7, 7, 1, lanes));
      assertEquals(7, Alignment.start(7, 3, 1, lanes)); // an empty loop
      assertTrue(Alignment.start(7, 7 + shortest, 1, lanes) < 7 + lanes);
    }
  }
}
