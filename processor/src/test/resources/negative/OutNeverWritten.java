package negative;

import dev.kiln.*;
import static dev.kiln.KMath.*;

public final class OutNeverWritten {
  @Operator
  public static void op(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y,
      @Out @Shape("N") float[] z) { // error: KILN010 'z'
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = x[i];
    }
  }
}
