package negative;

import dev.kiln.*;
import static dev.kiln.KMath.*;

public final class ParallelBoundNotDim {
  @Operator
  public static void op(@Dim int N, int n, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < n; i++) { // error: KILN011 neither a @Dim parameter
      y[i] = x[i];
    }
  }
}
