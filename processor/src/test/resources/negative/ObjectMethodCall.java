package negative;

import dev.kiln.*;
import static dev.kiln.KMath.*;

public final class ObjectMethodCall {
  @Operator
  public static void op(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = (float) Double.valueOf(x[i]).hashCode(); // error: KILN003 Double.valueOf
    }
  }
}
