package lib;

import dev.kiln.*;
import static dev.kiln.KMath.*;

/** A library of operators, compiled in its own module: its users see only its class files and resources. */
public final class Lib {
  private Lib() {}

  /** Softplus, linear above a threshold: a guarded early return. */
  @Operator
  public static float softplus(float x) {
    if (x > 20f) {
      return x;
    }
    return log(1f + exp(x));
  }

  /** Integer arithmetic with a division (a node that carries its scope). */
  @Operator
  public static float bucket(float x, int width) {
    int b = (int) x / width;
    return b * (float) width;
  }

  /** A grid operator: callers in other modules may not call it inside their workers. */
  @Operator
  public static void apply(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) y[i] = softplus(x[i]);
  }

  /** A nested class: its IR lies in Lib_Nested.kir. */
  public static final class Nested {
    private Nested() {}

    @Operator
    public static float twice(float x) {
      return 2f * x;
    }
  }
}
