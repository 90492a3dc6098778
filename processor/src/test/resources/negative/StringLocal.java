package negative;

import dev.kiln.*;
import static dev.kiln.KMath.*;

public final class StringLocal {
  @Operator
  public static void op(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      String s = "x"; // error: KILN024 local 's'
      y[i] = x[i];
    }
  }
}
