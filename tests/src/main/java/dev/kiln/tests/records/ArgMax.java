package dev.kiln.tests.records;

import dev.kiln.ElementGradient;
import dev.kiln.Identity;

/** The largest value seen and where (the first index on ties). */
public record ArgMax(float value, int index) {
  /** Nothing seen (index -1): the unit of {@link #larger}. */
  @Identity
  public static ArgMax none() {
    return new ArgMax(0f, -1);
  }

  /**
   * The larger of two, the lower index on a tie, an empty one ignored: associative and commutative
   * and exact, so workers' partial results combined in any tree give the plain loop's answer.
   */
  public static ArgMax larger(ArgMax a, ArgMax b) {
    if (b.index < 0) {
      return a;
    }
    if (a.index < 0) {
      return b;
    }
    return b.value > a.value || b.value == a.value && b.index < a.index ? b : a;
  }

  /** The largest value moves with the element it came from (the first on ties) and no other. */
  @ElementGradient
  public static ArgMax gradient(ArgMax t, ArgMax dt, ArgMax e) {
    return new ArgMax(e.index == t.index && e.index >= 0 ? dt.value : 0f, 0);
  }

  public ArgMax offer(float v, int i) {
    return v > value || index < 0 ? new ArgMax(v, i) : this;
  }
}
