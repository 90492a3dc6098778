package user;

import static lib.Lib.softplus;

import dev.kiln.*;
import lib.Lib;

/** Operators that call the library's elementwise operators, compiled against its class files. */
public final class Model {
  private Model() {}

  @Operator
  public static void act(@Dim int N, @Shape("N") float[] x, int width, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      float v = x[i];
      y[i] = softplus(v) + Lib.Nested.twice(v) - Lib.bucket(v, width) + softplus(v * 0.5f);
    }
  }

  @Operator
  public static float halfSoftplus(float x) {
    return 0.5f * Lib.softplus(x);
  }
}
