package negative;

import dev.kiln.*;
import static dev.kiln.KMath.*;

public final class RaceConstantIndex {
  @Operator
  public static void op(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[0] = x[i]; // error: KILN007 does not depend on the @Parallel variable 'i'
    }
  }
}
