package negative;

import dev.kiln.*;
import static dev.kiln.KMath.*;

public final class DimNotInt {
  @Operator
  public static void op(@Dim int N,
      @Dim long M, // error: KILN015 must be an int
      @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = 1f;
    }
  }
}
