package negative;

import dev.kiln.*;
import static dev.kiln.KMath.*;

public final class ElementwiseTakesArray {
  @Operator
  public static float first(
      @Shape("3") float[] x) { // error: KILN016 returns a value but takes the array 'x'
    return x[0];
  }
}
