package negative;

import dev.kiln.*;
import static dev.kiln.KMath.*;

public final class StringParameter {
  @Operator
  public static void op(@Dim int N, @Shape("N") float[] x,
      String label, // error: KILN013 'label'
      @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = x[i];
    }
  }
}
