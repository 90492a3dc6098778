package negative;

import dev.kiln.*;
import static dev.kiln.KMath.*;

public final class AllocationInWorker {
  @Operator
  public static void op(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      float[] tmp = new float[4]; // error: KILN005 allocation inside a worker
      y[i] = x[i];
    }
  }
}
