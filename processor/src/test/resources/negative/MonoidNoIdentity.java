package negative;

import dev.kiln.*;

public final class MonoidNoIdentity {
  record Sum(float s) {
    Sum plus(Sum o) {
      return new Sum(s + o.s);
    }
  }

  @Operator
  public static void op(@Dim int N, @Shape("N") float[] x, @Out @Reduce @Shape("1") Sum[] r) {
    for (@Parallel int i = 0; i < N; i++) {
      r[0] = r[0].plus(new Sum(x[i])); // error: KILN056 Sum has no @Identity method
    }
  }
}
