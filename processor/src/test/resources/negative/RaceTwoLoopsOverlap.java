package negative;

import dev.kiln.*;

public final class RaceTwoLoopsOverlap {
  @Operator
  public static void op(@Dim int B, @Dim int H, @Shape("B, H") float[] a, @Out @Shape("B + 1, 2*H") float[] y) {
    for (@Parallel int r = 0; r < B; r++) {
      for (int k = 0; k < H; k++) y[r * 2 * H + k] = a[r * H + k];
      for (int k = 0; k < H; k++) y[r * 2 * H + 2 * H + k] = 0f; // error: KILN007 may overlap between workers
    }
  }
}
