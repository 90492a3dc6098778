package negative;

import dev.kiln.*;

public final class StencilLeftEdge {
  @Operator
  public static void op(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = x[i - 1] + x[i]; // error: KILN047 out of bounds for the worker where i = 0: at every size it reaches below 0 (-1)
    }
  }
}
