package negative;

import dev.kiln.*;
import static dev.kiln.KMath.*;

public final class ReduceWithMinus {
  @Operator
  public static void op(@Dim int N, @Shape("N") float[] x, @Out @Reduce @Shape("1") float[] s) {
    for (@Parallel int i = 0; i < N; i++) {
      s[0] -= x[i]; // error: KILN021 updated with -=
    }
  }
}
