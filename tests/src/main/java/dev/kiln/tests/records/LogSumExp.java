package dev.kiln.tests.records;

import dev.kiln.ElementGradient;
import dev.kiln.Identity;

import static dev.kiln.KMath.exp;
import static dev.kiln.KMath.log;

/** A running maximum and the sum of {@code exp(x - max)}: log-sum-exp in one pass, rescaling when the maximum moves. */
public record LogSumExp(float max, float sum) {
  static final float LOWEST = -3.4028235e38f;

  /** No values: the unit of {@link #combine}. */
  @Identity
  public static LogSumExp empty() {
    return new LogSumExp(LOWEST, 0f);
  }

  public LogSumExp add(float x) {
    if (x > max) {
      return new LogSumExp(x, sum * exp(max - x) + 1f);
    }
    return new LogSumExp(max, sum + exp(x - max));
  }

  /** One value. */
  public static LogSumExp of(float x) {
    return new LogSumExp(x, 1f);
  }

  /** The values of this and of {@code o}: the larger maximum, the other sum rescaled to it. */
  public LogSumExp combine(LogSumExp o) {
    if (o.max > max) {
      return new LogSumExp(o.max, o.sum + sum * exp(max - o.max));
    }
    return new LogSumExp(max, sum + o.sum * exp(o.max - max));
  }

  /**
   * The gradient with respect to one element {@code e}: the sum {@code sum s_j exp(m_j - max)} moves
   * by {@code exp(e.max - max)} per unit of {@code e.sum} and by {@code e.sum exp(e.max - max)} per
   * unit of {@code e.max}; an element at the maximum also moves the maximum itself, by one, and with
   * it the whole sum, by {@code -sum}. (With ties at the maximum the representation is not
   * differentiable; {@link #value()}'s gradient, through both components, is right all the same.)
   */
  @ElementGradient
  public static LogSumExp gradient(LogSumExp t, LogSumExp dt, LogSumExp e) {
    float share = exp(e.max - t.max);
    float atMax = e.max == t.max ? dt.max - dt.sum * t.sum : 0f;
    return new LogSumExp(dt.sum * e.sum * share + atMax, dt.sum * share);
  }

  public float value() {
    return max + log(sum);
  }
}
