package negative;

import dev.kiln.*;

public final class CompositeStatement {
  @Operator
  public static void add(@Dim int N, @Shape("N") float[] a, @Shape("N") float[] b, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = a[i] + b[i];
    }
  }

  @Operator
  public static void twice(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    float[] t = new float[N];
    add(N, x, x, t);
    if (N > 0) { // error: KILN037 an if statement is not allowed in a composite operator
      add(N, t, t, y);
    }
    float s = 2f; // error: KILN037 the declaration of 's'
  }
}
