package dev.kiln.tests.records;

import static dev.kiln.KMath.exp;
import static dev.kiln.KMath.log;

/** A running maximum and the sum of {@code exp(x - max)}: log-sum-exp in one pass, rescaling when the maximum moves. */
public record LogSumExp(float max, float sum) {
  static final float LOWEST = -3.4028235e38f;

  public static LogSumExp empty() {
    return new LogSumExp(LOWEST, 0f);
  }

  public LogSumExp add(float x) {
    if (x > max) {
      return new LogSumExp(x, sum * exp(max - x) + 1f);
    }
    return new LogSumExp(max, sum + exp(x - max));
  }

  public float value() {
    return max + log(sum);
  }
}
