package negative;

import dev.kiln.*;

public final class SharedPrologueLocal {
  @Operator
  public static void op(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    float last = 0f;
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = x[i] + last;
      last = x[i]; // error: KILN036 every worker would share it
    }
  }
}
