package dev.kiln.tests.bounds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.runtime.simd.Simd;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An index out of bounds at run time reaches the caller as the {@code ArrayIndexOutOfBoundsException}
 * the plain method throws, its message naming the operator and its source line and keeping the
 * array's own message: on one chunk (the caller's thread) and on many (the pool's threads, where
 * the exception used to arrive as a copy without a message), scalar and SIMD kernels alike (this
 * class runs in both surefire executions).
 */
class OutOfBoundsTest {
  /**
   * What the message says instead of the index when HotSpot threw its preallocated exception
   * (code that has thrown often, as these tests make it, may lose the details).
   */
  private static final String FAST_THROW = "-XX:-OmitStackTraceInFastThrow";

  @ParameterizedTest(name = "N={0}")
  @ValueSource(ints = {20, 1 << 20})
  void anAffineReadPastTheEndNamesTheOperator(int n) {
    float[] x = new float[n];
    float[] y = new float[n];
    assertThrows(ArrayIndexOutOfBoundsException.class, () -> Shifts.shifted(n, x, 1, y));
    ArrayIndexOutOfBoundsException e =
        assertThrows(ArrayIndexOutOfBoundsException.class, () -> ShiftsKernels.shifted(n, x, 1, y));
    assertTrue(e.getMessage().startsWith("Shifts.shifted (Shifts.java:15): "), e.getMessage() + " " + Simd.describe());
    assertTrue(e.getMessage().contains("out of bounds for length " + n) || e.getMessage().contains(FAST_THROW),
        e.getMessage());
    ShiftsKernels.shifted(n, x, 0, y); // in bounds: no exception
  }

  @ParameterizedTest(name = "N={0}")
  @ValueSource(ints = {20, 1 << 20})
  void aGatherPastTheEndNamesTheOperatorAndTheIndex(int n) {
    float[] x = new float[5];
    int[] index = new int[n];
    index[n - 1] = 7;
    float[] y = new float[n];
    ArrayIndexOutOfBoundsException e =
        assertThrows(ArrayIndexOutOfBoundsException.class, () -> ShiftsKernels.gather(n, 5, x, index, y));
    String detail = e.getMessage().contains(FAST_THROW) ? e.getMessage().substring(e.getMessage().indexOf(": ") + 2,
        e.getMessage().indexOf(" (an array read")) : "Index 7 out of bounds for length 5";
    assertEquals("Shifts.gather (Shifts.java:23): " + detail + " (an array read or write"
        + " outside its bounds; the operator's plain Java method does the same on these arguments and throws"
        + " there too)", e.getMessage());
  }
}
