package dev.kiln.tests.fusion;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * Shared pieces of the fused-against-unfused tests: outputs that start as NaN, snapshots of the
 * inputs, and the sizes every composite runs at.
 *
 * <p>Sizes: 0 where the composite allows it (no worker), 1 (a single worker and, for row operators, rows of one element), small odd sizes, and
 * sizes whose work is well above the CPU grain that surefire sets ({@code kiln.cpu.grain=256},
 * four threads), so the fused kernels run as several chunks on several threads.
 */
final class Runs {
  private Runs() {}

  /** A new array of {@code n} NaNs: an element a kernel fails to write stays NaN and disagrees. */
  static float[] nan(int n) {
    float[] a = new float[n];
    Arrays.fill(a, Float.NaN);
    return a;
  }

  static double[] nanDoubles(int n) {
    double[] a = new double[n];
    Arrays.fill(a, Double.NaN);
    return a;
  }

  /**
   * The plain-Java result holds no NaN, so a NaN left in the kernel's output (an unwritten element)
   * cannot agree with it by accident.
   */
  static void assertNoNaN(float[] expected, String what) {
    for (int i = 0; i < expected.length; i++) {
      assertTrue(!Float.isNaN(expected[i]), what + ": the plain-Java result is NaN at [" + i + "]; choose other data");
    }
  }

  static void assertNoNaN(double[] expected, String what) {
    for (int i = 0; i < expected.length; i++) {
      assertTrue(!Double.isNaN(expected[i]), what + ": the plain-Java result is NaN at [" + i + "]; choose other data");
    }
  }

  /** Copies of the inputs, to check after both runs that neither wrote to them. */
  static final class Inputs {
    private final List<Object> arrays = new ArrayList<>();
    private final List<Object> copies = new ArrayList<>();

    Inputs(Object... inputs) {
      for (Object a : inputs) {
        arrays.add(a);
        copies.add(a instanceof float[] f ? f.clone() : ((double[]) a).clone());
      }
    }

    void assertUnchanged() {
      for (int i = 0; i < arrays.size(); i++) {
        if (arrays.get(i) instanceof float[] f) {
          assertArrayEquals((float[]) copies.get(i), f, "input " + i + " was modified");
        } else {
          assertArrayEquals((double[]) copies.get(i), (double[]) arrays.get(i), "input " + i + " was modified");
        }
      }
    }
  }

  /** 1-D sizes, 0 included. */
  static Stream<Integer> lengths() {
    return Stream.of(0, 1, 2, 3, 7, 1001, 4099);
  }

  /** (rows, columns): one row, one column, odd sizes, and 37 x 300 and 300 x 5 that run as many chunks. */
  static Stream<Arguments> rows() {
    return Stream.of(
        Arguments.of(1, 1), Arguments.of(1, 9), Arguments.of(5, 1), Arguments.of(3, 7), Arguments.of(7, 129),
        Arguments.of(37, 300), Arguments.of(300, 5));
  }

  /** (B, K, N) of a product [B, K] x [K, N]. */
  static Stream<Arguments> products() {
    return Stream.of(
        Arguments.of(1, 1, 1), Arguments.of(2, 3, 5), Arguments.of(7, 1, 9), Arguments.of(9, 17, 1),
        Arguments.of(37, 19, 65));
  }
}
