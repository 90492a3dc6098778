package negative;

import dev.kiln.*;

public final class MonoidGradientForm {
  record Sum(float s) {
    @Identity
    static Sum zero() {
      return new Sum(0f);
    }

    Sum plus(Sum o) {
      return new Sum(s + o.s);
    }

    /** Takes the total and the element but not the total's gradient. */
    @ElementGradient
    static Sum gradient(Sum total, Sum element) {
      return new Sum(1f);
    }
  }

  @Operator
  public static void op(@Dim int N, @Shape("N") float[] x, @Out @Reduce @Shape("1") Sum[] r) {
    for (@Parallel int i = 0; i < N; i++) {
      r[0] = r[0].plus(new Sum(x[i])); // error: KILN056 the @ElementGradient method 'gradient' of Sum is not static Sum gradient(Sum total, Sum totalGradient, Sum element)
    }
  }
}
