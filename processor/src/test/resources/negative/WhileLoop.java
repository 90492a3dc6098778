package negative;

import dev.kiln.*;
import static dev.kiln.KMath.*;

public final class WhileLoop {
  @Operator
  public static void op(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      float v = x[i];
      while (v > 1f) v = v / 2f; // error: KILN001 a while loop
      y[i] = v;
    }
  }
}
