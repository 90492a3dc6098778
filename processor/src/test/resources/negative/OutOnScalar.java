package negative;

import dev.kiln.*;
import static dev.kiln.KMath.*;

public final class OutOnScalar {
  @Operator
  public static void op(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y,
      @Out float total) { // error: KILN018 must be an array
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = x[i];
    }
  }
}
