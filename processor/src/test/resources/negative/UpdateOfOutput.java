package negative;

import dev.kiln.*;

public final class UpdateOfOutput {
  @Operator
  public static void op(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      for (int n = 0; n < N; n++) {
        y[n] += x[b * N + n]; // error: KILN048 declare the parameter @Out @Reduce
      }
    }
  }
}
