package negative;

import dev.kiln.*;

public final class RecordComponentObject {
  record Named(float value, String name) {}

  @Operator
  public static void op(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = new Named(x[i], "a").value(); // error: KILN053 its component 'name' is a java.lang.String
    }
  }
}
