package negative;

import dev.kiln.*;

public final class ReduceNarrowingTerm {
  @Operator
  public static void op(@Dim int N, @Shape("N") float[] x, @Out @Reduce @Shape("1") int[] count) {
    for (@Parallel int i = 0; i < N; i++) {
      count[0] += x[i] * 0.5f; // error: KILN021 wider than the int elements
    }
  }
}
