package negative;

import dev.kiln.*;

public final class ColumnPastShape {
  @Operator
  public static void op(@Dim int N, @Shape("N, 3") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = x[i * 3] + x[i * 3 + 3]; // error: KILN047 index 3*i + 3 of 'x'
    }
  }
}
