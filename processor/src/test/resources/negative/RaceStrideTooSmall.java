package negative;

import dev.kiln.*;
import static dev.kiln.KMath.*;

public final class RaceStrideTooSmall {
  @Operator
  public static void op(@Dim int B, @Dim int H, @Shape("B, H") float[] x, @Out @Shape("B, H") float[] y) {
    for (@Parallel int b = 0; b < B; b++)
      for (@Parallel int h = 0; h < H; h++)
        y[b * (H - 1) + h] = x[b * H + h]; // error: KILN007 may give two workers the same element
  }
}
