package user;

import dev.kiln.*;
import lib.Lib;

public final class CallsGrid {
  private CallsGrid() {}

  @Operator
  public static void twice(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = 2f * x[i];
      Lib.apply(N, x, y);
    }
  }
}
