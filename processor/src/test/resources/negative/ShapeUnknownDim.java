package negative;

import dev.kiln.*;
import static dev.kiln.KMath.*;

public final class ShapeUnknownDim {
  @Operator
  public static void op(@Dim int N,
      @Shape("N, Q") float[] x, // error: KILN009 names 'Q'
      @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = x[i];
    }
  }
}
