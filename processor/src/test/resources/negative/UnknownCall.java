package negative;

import dev.kiln.*;
import static dev.kiln.KMath.*;

public final class UnknownCall {
  static float helper(float v) { return v * 2f; }

  @Operator
  public static void op(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = helper(x[i]); // error: KILN003 not annotated @Operator
    }
  }
}
