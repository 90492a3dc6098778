package negative;

import dev.kiln.*;
import static dev.kiln.KMath.*;

public final class NotStatic {
  @Operator
  public float twice(float x) { // error: KILN012 must be static
    return 2f * x;
  }
}
