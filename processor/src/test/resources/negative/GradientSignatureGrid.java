package negative;

import dev.kiln.*;

public final class GradientSignatureGrid {
  @Operator
  public static void scale(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = 2f * x[i];
    }
  }

  /** Forgets the upstream gradient dy. */
  @Gradient(of = "scale")
  public static void scaleGrad(@Dim int N, @Shape("N") float[] x, @Shape("N") float[] y, @Out @Shape("N") float[] dx) { // error: KILN045 its signature must be void scaleGrad(@Dim int N, @Shape("N") float[] x, @Shape("N") float[] y, @Shape("N") float[] dy, @Out @Shape("N") float[] dx)
    for (@Parallel int i = 0; i < N; i++) {
      dx[i] = 2f;
    }
  }
}
