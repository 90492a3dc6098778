package negative;

import dev.kiln.*;

public final class RecordWrongType {
  record Pair(float a, float b) {}

  record Other(float a, float b) {}

  @Operator
  public static void op(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      Pair p = new Other(x[i], 1f); // error: KILN054 is a Other where a Pair is expected
      y[i] = x[i];
    }
  }
}
