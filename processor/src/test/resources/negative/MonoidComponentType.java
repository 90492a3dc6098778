package negative;

import dev.kiln.*;

public final class MonoidComponentType {
  record Flag(boolean seen) {
    @Identity
    static Flag none() {
      return new Flag(false);
    }

    Flag or(Flag o) {
      return new Flag(seen || o.seen);
    }
  }

  @Operator
  public static void op(@Dim int N, @Shape("N") float[] x, @Out @Reduce @Shape("1") Flag[] r) { // error: KILN056 the component 'seen' of Flag is a boolean
    for (@Parallel int i = 0; i < N; i++) {
      r[0] = r[0].or(new Flag(x[i] > 0f));
    }
  }
}
