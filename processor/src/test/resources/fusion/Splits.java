package fusion;

import dev.kiln.*;

/** A composite whose second call cannot join the first's kernel: the listing and the report say why. */
public final class Splits {
  private Splits() {}

  @Operator
  public static void rowSum(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B") float[] s) {
    for (@Parallel int b = 0; b < B; b++) {
      float acc = 0f;
      for (int k = 0; k < N; k++) {
        acc += x[b * N + k];
      }
      s[b] = acc;
    }
  }

  @Operator
  public static void twice(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = 2f * x[i];
    }
  }

  @Operator
  public static void both(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B") float[] s,
      @Out @Shape("B, N") float[] y) {
    rowSum(B, N, x, s);
    twice(B * N, x, y);
  }
}
