package negative;

import dev.kiln.*;

public final class OffsetNotADim {
  @Operator
  public static void op(@Dim int N, int seed,
      @Offset("M") int first, // error: KILN055 'M' is no @Dim of op
      @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = x[i] + KRandom.uniform(seed, 0, first + i);
    }
  }
}
