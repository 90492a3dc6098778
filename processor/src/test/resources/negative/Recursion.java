package negative;

import dev.kiln.*;
import static dev.kiln.KMath.*;

public final class Recursion {
  @Operator
  public static float fact(float n) {
    if (n <= 1f) return 1f;
    return n * fact(n - 1f); // error: KILN004 calls itself
  }
}
