package negative;

import dev.kiln.*;

public final class CompositeArguments {
  @Operator
  public static void scale(@Dim int N, @Shape("N") float[] x, float s, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = x[i] * s;
    }
  }

  @Operator
  public static void bad(@Dim int N, @Shape("N") float[] x, float k, @Out @Shape("N") float[] y) {
    float[] t = new float[N];
    scale(N / 2 * 2, x, k, t); // error: KILN038 a @Dim is given a size made of
    scale(N, x, k * 2f, t); // error: KILN038 pass a scalar parameter of the composite or a literal
    scale(N, y, 1f, y); // error: KILN041 'y' is passed to 'scale' as both 'x' and 'out'
  }
}
