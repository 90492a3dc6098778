package negative;

import dev.kiln.*;

public final class RaceScanOverlap {
  @Operator
  public static void op(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B + 1, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      float s = 0f;
      for (int k = 0; k < N; k++) {
        s += x[b * N + k];
        y[b * N + k] = s;
      }
      y[b * N + N] = s; // error: KILN007 may overlap between workers
    }
  }
}
