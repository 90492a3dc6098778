package negative;

import dev.kiln.*;
import static dev.kiln.KMath.*;

public final class AssignParameter {
  @Operator
  public static void op(@Dim int N, @Shape("N") float[] x, float scale, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      scale = scale * 2f; // error: KILN022 'scale' is assigned
      y[i] = x[i] * scale;
    }
  }
}
