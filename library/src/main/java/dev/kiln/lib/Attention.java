package dev.kiln.lib;

import dev.kiln.Dim;
import dev.kiln.KMath;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Shape;

/**
 * Attention from primitives: causal scaled dot-product scores ({@code [B, T, T]} from queries and
 * keys {@code [B, T, D]}), their softmax over each row ({@link Losses#softmax} with {@code B*T}
 * rows of {@code T}), and the weighted sum of values; {@link #causalAttention} is the three as one
 * composite, which the merger fuses. Gradients are derived.
 */
public final class Attention {
  private Attention() {}

  /**
   * {@code scores[b, i, j] = (q[b, i] . k[b, j]) / sqrt(D)} for {@code j <= i}, and {@code
   * -Infinity} above the diagonal (a position attends to itself and earlier ones only).
   */
  @Operator
  public static void causalScores(@Dim int B, @Dim int T, @Dim int D, @Shape("B, T, D") float[] q,
      @Shape("B, T, D") float[] k, @Out @Shape("B, T, T") float[] scores) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int i = 0; i < T; i++) {
        for (@Parallel int j = 0; j < T; j++) {
          float acc = 0f;
          for (int d = 0; d < D; d++) {
            acc += q[(b * T + i) * D + d] * k[(b * T + j) * D + d];
          }
          scores[(b * T + i) * T + j] = j <= i ? acc / KMath.sqrt((float) D) : Float.NEGATIVE_INFINITY;
        }
      }
    }
  }

  /** {@code out[b, i] = sum over j of weights[b, i, j] * v[b, j]} ({@code [B, T, D]}). */
  @Operator
  public static void weightedValues(@Dim int B, @Dim int T, @Dim int D, @Shape("B, T, T") float[] weights,
      @Shape("B, T, D") float[] v, @Out @Shape("B, T, D") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int i = 0; i < T; i++) {
        for (@Parallel int d = 0; d < D; d++) {
          float acc = 0f;
          for (int j = 0; j < T; j++) {
            acc += weights[(b * T + i) * T + j] * v[(b * T + j) * D + d];
          }
          out[(b * T + i) * D + d] = acc;
        }
      }
    }
  }

  /** Causal self-attention of one head: scores, their softmax, the weighted values. */
  @Operator
  public static void causalAttention(@Dim int B, @Dim int T, @Dim int D, @Shape("B, T, D") float[] q,
      @Shape("B, T, D") float[] k, @Shape("B, T, D") float[] v, @Out @Shape("B, T, D") float[] out) {
    float[] scores = new float[B * T * T];
    causalScores(B, T, D, q, k, scores);
    float[] weights = new float[B * T * T];
    Losses.softmax(B * T, T, scores, weights);
    weightedValues(B, T, D, weights, v, out);
  }
}
