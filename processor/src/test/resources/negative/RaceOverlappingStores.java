package negative;

import dev.kiln.*;
import static dev.kiln.KMath.*;

public final class RaceOverlappingStores {
  @Operator
  public static void op(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = x[i];
      y[(i + 1) % N] = 0f; // error: KILN007 'y'
    }
  }
}
