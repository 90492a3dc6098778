package dev.kiln.lib;

import dev.kiln.Dim;
import dev.kiln.KMath;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Shape;

/**
 * Normalisations of each row of a row-major {@code [B, N]} matrix, one worker per row: layer norm
 * (mean and variance, then a learned scale and shift) and RMS norm (the root mean square only, then
 * a learned scale), epsilon inside the square root. Their gradients are derived.
 */
public final class Norms {
  private Norms() {}

  /**
   * {@code y = (x - mean) / sqrt(var + 1e-5) * gamma + beta}, the variance over the row (divided by
   * N). Both sums are lane sums ({@link Rows#LANES} strided partial sums, then the partials in
   * order): the order the SIMD kernel adds in, so it computes these bits at vector speed.
   */
  @Operator
  public static void layerNorm(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("N") float[] gamma,
      @Shape("N") float[] beta, @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      float s = 0f;
      for (int j = 0; j < Rows.LANES; j++) {
        float p = 0f;
        for (int n = j; n < N; n += Rows.LANES) {
          p += x[b * N + n];
        }
        s += p;
      }
      float mean = s / N;
      float v = 0f;
      for (int j = 0; j < Rows.LANES; j++) {
        float q = 0f;
        for (int n = j; n < N; n += Rows.LANES) {
          float d = x[b * N + n] - mean;
          q += d * d;
        }
        v += q;
      }
      float r = KMath.rsqrt(v / N + 1e-5f);
      for (int n = 0; n < N; n++) {
        y[b * N + n] = (x[b * N + n] - mean) * r * gamma[n] + beta[n];
      }
    }
  }

  /** {@code y = x / sqrt(mean(x^2) + 1e-6) * gamma} (RMSNorm: no centring, no shift; the sum of squares a lane sum). */
  @Operator
  public static void rmsNorm(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("N") float[] gamma,
      @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      float ss = 0f;
      for (int j = 0; j < Rows.LANES; j++) {
        float p = 0f;
        for (int n = j; n < N; n += Rows.LANES) {
          p += x[b * N + n] * x[b * N + n];
        }
        ss += p;
      }
      float r = KMath.rsqrt(ss / N + 1e-6f);
      for (int n = 0; n < N; n++) {
        y[b * N + n] = x[b * N + n] * r * gamma[n];
      }
    }
  }
}
