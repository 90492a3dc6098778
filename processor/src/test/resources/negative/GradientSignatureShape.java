package negative;

import dev.kiln.*;

public final class GradientSignatureShape {
  @Operator
  public static void rowSums(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B") float[] s) {
    for (@Parallel int b = 0; b < B; b++) {
      float acc = 0f;
      for (int n = 0; n < N; n++) {
        acc += x[b * N + n];
      }
      s[b] = acc;
    }
  }

  /** The gradient of x has the shape of s: wrong. */
  @Gradient(of = "rowSums")
  public static void sumsGrad(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("B") float[] s, // error: KILN045 @Out @Shape("B, N") float[] dx
      @Shape("B") float[] ds, @Out @Shape("B") float[] dx) {
    for (@Parallel int b = 0; b < B; b++) {
      dx[b] = ds[b];
    }
  }
}
