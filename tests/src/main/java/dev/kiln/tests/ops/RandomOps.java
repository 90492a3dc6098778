package dev.kiln.tests.ops;

import dev.kiln.Dim;
import dev.kiln.KRandom;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Shape;

/**
 * Operators that draw counter-based random numbers ({@link KRandom}): each value a function of the
 * seed, the stream and the element's index, so the CPU kernel, its chunks, the CUDA kernel and the
 * plain Java all draw the same numbers.
 */
public final class RandomOps {
  private RandomOps() {}

  /** Uniform noise for elements {@code offset .. offset + N - 1} of a longer tensor. */
  @Operator
  public static void noise(@Dim int N, int seed, int offset, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = KRandom.uniform(seed, 0, offset + i);
    }
  }

  /**
   * Inverted dropout: each element zeroed with probability {@code p}, the others scaled by {@code
   * 1 / (1 - p)}. The gradient draws the same mask again.
   */
  @Operator
  public static void dropout(@Dim int N, float p, int seed, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = KRandom.uniform(seed, 1, i) < p ? 0f : x[i] / (1f - p);
    }
  }

  /** {@code y = x + sigma * z}, z standard normal (stream 2): the gradient passes dy through to x. */
  @Operator
  public static void gaussianNoise(@Dim int N, int seed, float sigma, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = x[i] + sigma * KRandom.normal(seed, 2, i);
    }
  }

  /** Row-wise noise on a grid: stream {@code b}, index {@code k}; a sequential loop drawing too. */
  @Operator
  public static void jitterRows(@Dim int B, @Dim int N, int seed, @Shape("B, N") float[] x,
      @Out @Shape("B, N") float[] y, @Out @Shape("B") float[] total) {
    for (@Parallel int b = 0; b < B; b++) {
      float s = 0f;
      for (int k = 0; k < N; k++) {
        float v = x[b * N + k] + 0.01f * (KRandom.uniform(seed, b, k) - 0.5f);
        y[b * N + k] = v;
        s += v;
      }
      total[b] = s;
    }
  }
}
