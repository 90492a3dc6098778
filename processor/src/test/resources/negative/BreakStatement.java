package negative;

import dev.kiln.*;
import static dev.kiln.KMath.*;

public final class BreakStatement {
  @Operator
  public static void op(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      float s = 0f;
      for (int k = 0; k < N; k++) {
        if (x[k] < 0f) break; // error: KILN001 break
        s += x[k];
      }
      y[i] = s;
    }
  }
}
