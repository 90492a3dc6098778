package ir;

import dev.kiln.*;
import static dev.kiln.KMath.*;

public final class Cells {
  @Operator
  public static float sigmoid(float x) { return 1f / (1f + exp(-x)); }

  @Operator
  public static void saxpy(@Dim int N, float a, @Shape("N") float[] x, @Shape("N") float[] y, @Out @Shape("N") float[] z) {
    for (@Parallel int i = 0; i < N; i++) z[i] = a * x[i] + y[i];
  }

  @Operator
  public static void lstmCell(@Dim int B, @Dim int H,
                              @Shape("B, 4*H") float[] gates, @Shape("B, H") float[] c, float forgetBias,
                              @Out @Shape("B, H") float[] cNext, @Out @Shape("B, H") float[] hNext) {
    for (@Parallel int b = 0; b < B; b++)
      for (@Parallel int h = 0; h < H; h++) {
        int g = b * 4 * H;
        float i = gates[g + h], j = gates[g + H + h], f = gates[g + 2 * H + h], o = gates[g + 3 * H + h];
        float cn = c[b * H + h] * sigmoid(f + forgetBias) + sigmoid(i) * tanh(j);
        cNext[b * H + h] = cn;
        hNext[b * H + h] = tanh(cn) * sigmoid(o);
      }
  }

  @Operator
  public static void transpose(@Dim int R, @Dim int C, @Shape("R, C") float[] x, @Out @Shape("C, R") float[] y) {
    for (@Parallel int r = 0; r < R; r++)
      for (@Parallel int c = 0; c < C; c++)
        y[c * R + r] = x[r * C + c];
  }

  @Operator
  public static void matvec(@Dim int M, @Dim int K, @Shape("M, K") float[] w, @Shape("K") float[] x, @Out @Shape("M") float[] y) {
    for (@Parallel int m = 0; m < M; m++) {
      float acc = 0f;
      for (int k = 0; k < K; k++) acc += w[m * K + k] * x[k];
      y[m] = acc;
    }
  }

  @Operator
  public static void blur(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      float left = i > 0 ? x[i - 1] : 0f;
      y[i] = 0.5f * left + 0.5f * x[i];
    }
  }

  @Operator
  public static void rowMax(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Reduce @Shape("B") float[] m) {
    for (@Parallel int b = 0; b < B; b++)
      for (@Parallel int n = 0; n < N; n++)
        m[b] = max(m[b], x[b * N + n]);
  }
}
