package dev.kiln.lib;

import dev.kiln.ElementGradient;
import dev.kiln.Identity;

/**
 * The count, mean and sum of squared deviations of some values: a monoid whose {@link #combine}
 * is Chan's formula for merging two summaries, accurate where the sum of squares minus the squared
 * sum is not (values far from zero against their spread). {@link Stats} reduces into arrays of it,
 * and {@link #gradient} gives the operators that do derived gradients.
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

  /**
   * The gradient of a summary's components with respect to one summarised element {@code e}: with
   * {@code d = e.mean - t.mean}, the mean {@code sum n_e mean_e / n} moves by {@code n_e / n} and
   * {@code d / n} per unit of {@code mean_e} and {@code n_e}; the spread {@code sum m2_e + n_e
   * (mean_e - mean)^2} by {@code 2 n_e d}, {@code d^2} and 1 per unit of {@code mean_e}, {@code
   * n_e} and {@code m2_e} (its terms through the mean cancel, as {@code sum n_e (mean_e - mean) =
   * 0}); the count by 1 per unit of {@code n_e}. Zero for an empty summary.
   */
  @ElementGradient
  public static MeanVar gradient(MeanVar t, MeanVar dt, MeanVar e) {
    if (t.n == 0f) {
      return new MeanVar(0f, 0f, 0f);
    }
    float d = e.mean - t.mean;
    return new MeanVar(dt.n + dt.mean * d / t.n + dt.m2 * d * d, dt.mean * e.n / t.n + dt.m2 * 2f * e.n * d, dt.m2);
  }

  /** The population variance (0 for no values). */
  public float variance() {
    return n > 0f ? m2 / n : 0f;
  }
}
