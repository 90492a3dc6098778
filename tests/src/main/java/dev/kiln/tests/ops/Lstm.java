package dev.kiln.tests.ops;

import static dev.kiln.KMath.*;

import dev.kiln.*;

/**
 * The LSTM cell of DESIGN.md, as written there. {@code sigmoid} here is this class's own
 * elementwise operator (it shadows {@link KMath#sigmoid(float)}, which rounds differently), and
 * {@code tanh} is KMath's.
 */
public final class Lstm {
  private Lstm() {}

  /** Elementwise operator: a scalar function. Kiln maps it over arrays and inlines it into callers. */
  @Operator
  public static float sigmoid(float x) { return 1f / (1f + exp(-x)); }

  /** Grid operator: the @Parallel loops are the worker grid; the rest is one worker's code. */
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
}
