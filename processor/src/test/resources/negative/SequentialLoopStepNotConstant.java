package negative;

import dev.kiln.*;
import static dev.kiln.KMath.*;

public final class SequentialLoopStepNotConstant {
  static final int LANES = 16;
  static int lanes = 16;

  @Operator
  public static void op(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      float s = 0f;
      for (int k = 0; k < N; k += LANES) { // a constant step: accepted
        s += x[k];
      }
      for (int k = 0; k < N; k += lanes) { // error: KILN025 the update must be k++ or k += c with c a positive int literal or constant
        s += x[k];
      }
      for (int k = 0; k < N; k += -LANES) { // error: KILN025 the update must be k++ or k += c
        s += x[k];
      }
      y[i] = s;
    }
  }
}
