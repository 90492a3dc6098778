package negative;

import dev.kiln.*;
import static dev.kiln.KMath.*;

public final class ElementwiseReturnsObject {
  @Operator
  public static String name(float x) { // error: KILN016 returns java.lang.String
    return "x";
  }
}
