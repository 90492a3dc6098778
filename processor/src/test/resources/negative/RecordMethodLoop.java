package negative;

import dev.kiln.*;

public final class RecordMethodLoop {
  record Pair(float a, float b) {
    float power(int n) {
      float p = 1f;
      for (int k = 0; k < n; k++) { // error: KILN053 its method has a loop
        p *= a;
      }
      return p + b;
    }
  }

  @Operator
  public static void op(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = new Pair(x[i], 1f).power(3);
    }
  }
}
