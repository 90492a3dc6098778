package negative;

import dev.kiln.*;
import static dev.kiln.KMath.*;

public final class WriteToInput {
  @Operator
  public static void op(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      x[i] = 0f; // error: KILN019 'x' is an input
      y[i] = 1f;
    }
  }
}
