package negative;

import dev.kiln.*;
import static dev.kiln.KMath.*;

public final class ElementwiseLoop {
  @Operator
  public static float power(float x) {
    float r = 1f;
    for (int k = 0; k < 3; k++) r *= x; // error: KILN030 a loop
    return r;
  }
}
