package negative;

import dev.kiln.*;
import static dev.kiln.KMath.*;

public final class ParallelStartsAtOne {
  @Operator
  public static void op(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 1; i < N; i++) { // error: KILN011 start at 0
      y[i] = x[i];
    }
  }
}
