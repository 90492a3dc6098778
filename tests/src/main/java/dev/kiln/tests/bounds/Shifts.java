package dev.kiln.tests.bounds;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Shape;

/** Reads whose bounds depend on an argument: out of bounds for some calls only, so not a compile error. */
public final class Shifts {
  private Shifts() {}

  /** {@code y[i] = x[i + k]}: past the end for the last k workers when k > 0. */
  @Operator
  public static void shifted(@Dim int N, @Shape("N") float[] x, int k, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = x[i + k] * 2f;
    }
  }

  /** {@code y[i] = x[index[i]]}: a gather, out of bounds where an index is. */
  @Operator
  public static void gather(@Dim int N, @Dim int M, @Shape("M") float[] x, @Shape("N") int[] index,
      @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = x[index[i]];
    }
  }

  /** {@code y[i + k] = 2 x[i]}: past the end of {@code y} for the last workers when k > 8, before it when k < 0. */
  @Operator
  public static void shiftedWrite(@Dim int N, @Shape("N") float[] x, int k, @Out @Shape("N + 8") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i + k] = x[i] * 2f;
    }
  }
}
