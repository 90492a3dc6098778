package lib;

import dev.kiln.*;
import static dev.kiln.KMath.*;

/** An older Lib whose softplus took a double: its IR no longer matches the class. */
public final class Lib {
  private Lib() {}

  @Operator
  public static double softplus(double x) {
    return log(1.0 + exp(x));
  }
}
