package negative;

import dev.kiln.*;

public final class StoreBeforeStart {
  @Operator
  public static void op(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[N - 1 - i - 1] = x[i]; // error: KILN047 i = N - 1
    }
  }
}
