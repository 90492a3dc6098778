package ir;

import dev.kiln.*;

/** An elementwise operator first lowered in the middle of a grid operator, between two loops. */
public final class LateCallee {
  @Operator
  public static void twoLoops(@Dim int M, @Dim int K, @Shape("M, K") float[] w, @Out @Shape("M") float[] y) {
    for (@Parallel int m = 0; m < M; m++) {
      float acc = 0f;
      for (int k = 0; k < K; k++) acc += w[m * K + k];
      float s = square(acc);
      for (int k = 0; k < K; k++) acc += w[m * K + k] * s;
      y[m] = acc;
    }
  }

  @Operator
  public static float square(float x) { return x * x; }
}
