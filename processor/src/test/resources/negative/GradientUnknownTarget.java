package negative;

import dev.kiln.*;

public final class GradientUnknownTarget {
  @Operator
  public static float sq(float x) {
    return x * x;
  }

  @Gradient(of = "square")
  public static float sqGrad(float x, float y, float dy) { // error: KILN044 this class has no @Operator named 'square'
    return 2f * x * dy;
  }
}
