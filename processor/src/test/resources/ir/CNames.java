package ir;

import dev.kiln.*;

/** Operators named like C functions that the CUDA headers declare: their kernels are renamed. */
public final class CNames {
  @Operator
  public static void exp(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) out[i] = KMath.exp(x[i]);
  }

  @Operator
  public static void div(@Dim int N, @Shape("N") float[] a, @Shape("N") float[] b, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) out[i] = a[i] / b[i];
  }

  @Operator
  public static void rowSum(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Reduce @Shape("B") float[] printf) {
    for (@Parallel int b = 0; b < B; b++)
      for (@Parallel int n = 0; n < N; n++) printf[b] += x[b * N + n];
  }
}
