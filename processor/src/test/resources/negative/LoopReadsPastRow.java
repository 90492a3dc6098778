package negative;

import dev.kiln.*;

public final class LoopReadsPastRow {
  @Operator
  public static void op(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      float s = 0f;
      for (int k = 0; k < N; k++) {
        s += x[b * N + k + 1]; // error: KILN047 b = B - 1, k = N - 1
      }
      y[b] = s;
    }
  }
}
