package dev.kiln.lib;

import dev.kiln.Identity;

/**
 * The count, mean and sum of squared deviations of some values: a monoid whose {@link #combine}
 * is Chan's formula for merging two summaries, accurate where the sum of squares minus the squared
 * sum is not (values far from zero against their spread). {@link Stats} reduces into arrays of it.
 */
public record MeanVar(float n, float mean, float m2) {
  /** No values: the unit of {@link #combine}. */
  @Identity
  public static MeanVar empty() {
    return new MeanVar(0f, 0f, 0f);
  }

  /** One value. */
  public static MeanVar of(float x) {
    return new MeanVar(1f, x, 0f);
  }

  /** The values of this and of {@code o} (Chan, Golub and LeVeque's pairwise update). */
  public MeanVar combine(MeanVar o) {
    if (o.n == 0f) {
      return this;
    }
    if (n == 0f) {
      return o;
    }
    float total = n + o.n;
    float d = o.mean - mean;
    return new MeanVar(total, mean + d * (o.n / total), m2 + o.m2 + d * d * (n * o.n / total));
  }

  /** The population variance (0 for no values). */
  public float variance() {
    return n > 0f ? m2 / n : 0f;
  }
}
