package negative;

import dev.kiln.*;
import static dev.kiln.KMath.*;

public final class MutualRecursion {
  @Operator
  public static float ping(float v) {
    return v > 0f ? pong(v - 1f) : v;
  }

  @Operator
  public static float pong(float v) {
    return ping(v * 0.5f); // error: KILN004 recursion
  }
}
