package negative;

import dev.kiln.*;
import static dev.kiln.KMath.*;

public final class GradientSignatureElementwise {
  @Operator
  public static float softplus(float x) {
    return log(1f + exp(x));
  }

  @Gradient(of = "softplus")
  public static double softplusGrad(float x, float y, float dy) { // error: KILN045 its signature must be float softplusGrad(float x, float y, float dy)
    return dy * sigmoid(x);
  }

  @Operator
  public static float mix(float a, float b) {
    return a * b;
  }

  @Gradient(of = "mix")
  public static float mixGrad(float a, float b, float y, float dy) { // error: KILN045 one derived gradient per parameter
    return dy * b;
  }
}
