package negative;

import dev.kiln.*;

public final class StencilRightEdge {
  @Operator
  public static void op(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = x[i] + x[i + 1]; // error: KILN047 the worker where i = N - 1: at every size it reaches N, past its N elements
    }
  }
}
