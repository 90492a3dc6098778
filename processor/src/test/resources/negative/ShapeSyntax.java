package negative;

import dev.kiln.*;
import static dev.kiln.KMath.*;

public final class ShapeSyntax {
  @Operator
  public static void op(@Dim int N,
      @Shape("N,,2") float[] x, // error: KILN023 malformed
      @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = x[i];
    }
  }
}
