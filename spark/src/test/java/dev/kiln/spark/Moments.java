package dev.kiln.spark;

import java.io.Serializable;

/** Count, mean and sum of squared deviations: Welford's update, Chan's combination (a user monoid). */
public record Moments(float n, float mean, float m2) implements Serializable {
  public static Moments empty() {
    return new Moments(0f, 0f, 0f);
  }

  public Moments add(float x) {
    float n1 = n + 1f;
    float d = x - mean;
    float m = mean + d / n1;
    return new Moments(n1, m, m2 + d * (x - m));
  }

  public Moments combine(Moments o) {
    if (o.n == 0f) {
      return this;
    }
    if (n == 0f) {
      return o;
    }
    float total = n + o.n;
    float d = o.mean - mean;
    return new Moments(total, mean + d * (o.n / total), m2 + o.m2 + d * d * (n * o.n / total));
  }

  public float variance() {
    return n > 0f ? m2 / n : 0f;
  }
}
