package negative;

import dev.kiln.*;
import static dev.kiln.KMath.*;

public final class StatementBetweenParallelLoops {
  @Operator
  public static void op(@Dim int B, @Dim int H, @Shape("B, H") float[] x, @Out @Shape("B, H") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      float s = x[b * H];
      for (@Parallel int h = 0; h < H; h++) { // error: KILN017 perfectly nested
        y[b * H + h] = s;
      }
    }
  }
}
