package negative;

import dev.kiln.*;
import static dev.kiln.KMath.*;

public final class ConstantIndexPastShape {
  @Operator
  public static void op(@Dim int N, @Shape("N") float[] x, @Shape("3") float[] w, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = x[i] * w[3]; // error: KILN008 has 3 elements
    }
  }
}
