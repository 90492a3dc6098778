package dev.kiln.tests.ops;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Shape;

/**
 * Floating-point values converted to integers, as Java converts them: NaN to 0, a value beyond the
 * target's range to the nearest end of it, then {@code short} narrowed from {@code int}. C leaves
 * the first two undefined, so the CUDA kernels convert through {@code kiln::java_int} and
 * {@code kiln::java_long}. Found by the CUDA fuzzer (seeds 9, 11, 12 and 79), where the emulated
 * driver's host code gave {@code Integer.MIN_VALUE} for a float beyond {@code int}'s range.
 */
public final class Conversions {
  /**
   * Values where Java's conversion to an integer differs from a plain C cast, and their neighbours:
   * NaN, the infinities, beyond and at the ends of int's and long's ranges, past short's.
   */
  public static final double[] EDGES = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 3e9, -3e9,
      2147483647.5, -2147483648.5, -2147483648.0, 2147483520.0, 1e19, -1e19, 9.3e18, -9.3e18, 65536.75, -32769.5, 1.5,
      -1.5, -0.0, 0.0, 1e-40, 7e4};

  private Conversions() {}

  @Operator
  public static void floatsToInts(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") int[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = (int) x[i];
    }
  }

  @Operator
  public static void floatsToLongs(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") long[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = (long) x[i];
    }
  }

  @Operator
  public static void doublesToInts(@Dim int N, @Shape("N") double[] x, @Out @Shape("N") int[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = (int) x[i];
    }
  }

  @Operator
  public static void doublesToLongs(@Dim int N, @Shape("N") double[] x, @Out @Shape("N") long[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = (long) x[i];
    }
  }

  /** {@code (short) x} is {@code (short) (int) x} in Java: saturated to int's range, then its low 16 bits. */
  @Operator
  public static void floatsToShorts(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") short[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = (short) x[i];
    }
  }
}
