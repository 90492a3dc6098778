package dev.kiln.tests.ops;

import static dev.kiln.KMath.*;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Shape;

/**
 * Row-wise operators: one worker per row runs several sequential passes over it. A worker never
 * reads its own output back; what a later pass needs is kept in locals.
 */
public final class Normalization {
  private Normalization() {}

  /** The lowest finite float, the start of a running maximum. */
  static final float LOWEST = -3.4028235e38f;

  /** Softmax of each row: a pass for the maximum, one for the sum of exponentials, one to write. */
  @Operator
  public static void softmax(
      @Dim int R, @Dim int N, @Shape("R, N") float[] x, @Out @Shape("R, N") float[] out) {
    for (@Parallel int r = 0; r < R; r++) {
      int row = r * N;
      float m = LOWEST;
      for (int k = 0; k < N; k++) {
        m = max(m, x[row + k]);
      }
      float sum = 0f;
      for (int k = 0; k < N; k++) {
        sum += exp(x[row + k] - m);
      }
      for (int k = 0; k < N; k++) {
        out[r * N + k] = exp(x[row + k] - m) / sum;
      }
    }
  }

  /** Layer normalisation of each row, with a per-column scale and shift, and a scalar epsilon. */
  @Operator
  public static void layerNorm(
      @Dim int R,
      @Dim int N,
      @Shape("R, N") float[] x,
      @Shape("N") float[] gamma,
      @Shape("N") float[] beta,
      float eps,
      @Out @Shape("R, N") float[] out) {
    for (@Parallel int r = 0; r < R; r++) {
      int row = r * N;
      float mean = 0f;
      for (int k = 0; k < N; k++) {
        mean += x[row + k];
      }
      mean = mean / N;
      float var = 0f;
      for (int k = 0; k < N; k++) {
        float d = x[row + k] - mean;
        var += d * d;
      }
      var = var / N;
      float inv = rsqrt(var + eps);
      for (int k = 0; k < N; k++) {
        out[r * N + k] = (x[row + k] - mean) * inv * gamma[k] + beta[k];
      }
    }
  }
}
