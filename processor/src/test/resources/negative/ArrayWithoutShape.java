package negative;

import dev.kiln.*;
import static dev.kiln.KMath.*;

public final class ArrayWithoutShape {
  @Operator
  public static void op(@Dim int N,
      float[] x, // error: KILN014 needs a @Shape
      @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = x[i];
    }
  }
}
