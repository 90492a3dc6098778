package dev.kiln.tests.simd;

import dev.kiln.Dim;
import dev.kiln.KMath;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Shape;

/**
 * One {@code KMath} float function per operator, so that {@code VectorMathTest} can run the vector
 * form the processor writes for it (in each SIMD kernel) over a dense sample of all floats.
 */
public final class MathOps {
  private MathOps() {}

  @Operator
  public static void exp(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = KMath.exp(x[i]);
    }
  }

  @Operator
  public static void tanh(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = KMath.tanh(x[i]);
    }
  }

  @Operator
  public static void sigmoid(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = KMath.sigmoid(x[i]);
    }
  }

  @Operator
  public static void erf(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = KMath.erf(x[i]);
    }
  }
}
