package negative;

import dev.kiln.*;
import static dev.kiln.KMath.*;

public final class TwoErrorsInOneOperator {
  @Operator
  public static void op(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      float a = x.length; // error: KILN002 x.length
      float b = unknownHelper(x[i]); // error: KILN003 unknownHelper
      y[i] = x[i];
    }
  }
}
