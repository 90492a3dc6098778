package negative;

import dev.kiln.*;

public final class RecordAsNumber {
  record Pair(float a, float b) {}

  @Operator
  public static void op(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      Pair p = new Pair(x[i], 2f);
      y[i] = p; // error: KILN054 'p' is a Pair where a number is expected (read a component: p.a())
    }
  }
}
