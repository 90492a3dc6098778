package negative;

import dev.kiln.*;
import static dev.kiln.KMath.*;

public final class ReadOfOutput {
  @Operator
  public static void op(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = x[i];
      y[i] = y[i] * 2f; // error: KILN020 reads @Out array 'y'
    }
  }
}
