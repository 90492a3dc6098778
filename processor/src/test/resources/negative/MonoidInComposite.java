package negative;

import dev.kiln.*;

public final class MonoidInComposite {
  record Sum(float s) {
    @Identity
    static Sum zero() {
      return new Sum(0f);
    }

    Sum plus(Sum o) {
      return new Sum(s + o.s);
    }
  }

  @Operator
  public static void total(@Dim int N, @Shape("N") float[] x, @Out @Reduce @Shape("1") Sum[] r) {
    for (@Parallel int i = 0; i < N; i++) {
      r[0] = r[0].plus(new Sum(x[i]));
    }
  }

  @Operator
  public static void twice(@Dim int N, @Shape("N") float[] x, @Out @Reduce @Shape("1") Sum[] r) { // error: KILN056 an array of records in a composite
    total(N, x, r);
    total(N, x, r);
  }
}
