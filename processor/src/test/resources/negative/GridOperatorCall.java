package negative;

import dev.kiln.*;
import static dev.kiln.KMath.*;

public final class GridOperatorCall {
  @Operator
  public static void copy(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) y[i] = x[i];
  }

  @Operator
  public static void twice(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = 2f * x[i];
      copy(N, x, y); // error: KILN027 grid operators are called from composite operators
    }
  }
}
