package negative;

import dev.kiln.*;

public final class RecordConstructorBody {
  record Positive(float v) {
    Positive {
      v = Math.abs(v);
    }
  }

  @Operator
  public static void op(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = new Positive(x[i]).v(); // error: KILN053 its canonical constructor has statements of its own
    }
  }
}
