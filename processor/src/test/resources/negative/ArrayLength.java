package negative;

import dev.kiln.*;
import static dev.kiln.KMath.*;

public final class ArrayLength {
  @Operator
  public static void op(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = x.length; // error: KILN002 x.length
    }
  }
}
