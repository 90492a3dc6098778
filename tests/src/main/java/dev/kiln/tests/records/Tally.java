package dev.kiln.tests.records;

import dev.kiln.Identity;

/** A count and a sum in wide types: a monoid of a {@code long} and a {@code double} component. */
public record Tally(long n, double sum) {
  /** Nothing counted. */
  @Identity
  public static Tally none() {
    return new Tally(0L, 0.0);
  }

  /** One value. */
  public static Tally of(float x) {
    return new Tally(1L, x);
  }

  /** Both counts and both sums. */
  public Tally plus(Tally o) {
    return new Tally(n + o.n, sum + o.sum);
  }

  public double mean() {
    return n == 0L ? 0.0 : sum / n;
  }
}
