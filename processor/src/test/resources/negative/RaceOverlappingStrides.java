package negative;

import dev.kiln.*;

public final class RaceOverlappingStrides {
  @Operator
  public static void op(@Dim int N, @Shape("N") float[] x, @Out @Shape("2*N + 1") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      for (int j = 0; j < 3; j++) {
        y[2 * i + j] = x[i]; // error: KILN007 the strides overlap, 'i' steps by 2 while 'j' spans 2
      }
    }
  }
}
