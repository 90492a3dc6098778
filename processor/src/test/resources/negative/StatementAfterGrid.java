package negative;

import dev.kiln.*;
import static dev.kiln.KMath.*;

public final class StatementAfterGrid {
  @Operator
  public static void op(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = x[i];
    }
    System.gc(); // error: KILN026 outside the @Parallel loops
  }
}
