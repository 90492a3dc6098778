package negative;

import dev.kiln.*;
import static dev.kiln.KMath.*;

public final class ParallelBoundWithMinus {
  @Operator
  public static void op(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N - 1; i++) { // error: KILN011 nor made of @Dim parameters, int literals, + and *
      y[i] = x[i] + x[i + 1];
    }
  }
}
