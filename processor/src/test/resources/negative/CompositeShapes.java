package negative;

import dev.kiln.*;

public final class CompositeShapes {
  @Operator
  public static void copy(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = x[i];
    }
  }

  @Operator
  public static void bad(@Dim int B, @Dim int H, @Shape("B, H") float[] x, @Out @Shape("B, H") float[] y) {
    float[] t = new float[B];
    copy(B * H, x, t); // error: KILN039 argument 't' of the call to 'copy' has B elements, but parameter 'out' has @Shape("N") = B*H elements
    copy(B * H, x, y);
  }
}
