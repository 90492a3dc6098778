package dev.kiln.tests.records;

import dev.kiln.ElementGradient;
import dev.kiln.Identity;

/**
 * The three largest values seen and where, largest first (the lower index first on ties); a slot
 * not yet filled has index -1 and ranks below every value. A top-k of small k as a user monoid:
 * {@link #merge} keeps the best three of two such lists, an exact and associative choice (a total
 * order: value, then index), so workers' partial lists combined in any tree give the plain loop's.
 */
public record Top3(float v0, int i0, float v1, int i1, float v2, int i2) {
  /** Nothing seen: the unit of {@link #merge}. */
  @Identity
  public static Top3 none() {
    return new Top3(0f, -1, 0f, -1, 0f, -1);
  }

  /** One value at index {@code i}. */
  public static Top3 of(float v, int i) {
    return new Top3(v, i, 0f, -1, 0f, -1);
  }

  /** Whether (v, i) ranks above (w, j): a filled slot above an empty one, a larger value, then a lower index. */
  static boolean above(float v, int i, float w, int j) {
    return i >= 0 && (j < 0 || v > w || v == w && i < j);
  }

  /** The best three of {@code a} and {@code b}: three picks, each the better of the two lists' next entries. */
  public static Top3 merge(Top3 a, Top3 b) {
    // pick 1: the heads
    boolean fromA = above(a.v0, a.i0, b.v0, b.i0);
    float v0 = fromA ? a.v0 : b.v0;
    int i0 = fromA ? a.i0 : b.i0;
    // pick 2: a's second against b's head, or a's head against b's second
    float av = fromA ? a.v1 : a.v0;
    int ai = fromA ? a.i1 : a.i0;
    float bv = fromA ? b.v0 : b.v1;
    int bi = fromA ? b.i0 : b.i1;
    boolean fromA2 = above(av, ai, bv, bi);
    float v1 = fromA2 ? av : bv;
    int i1 = fromA2 ? ai : bi;
    // pick 3: the entries after those taken (two from a, one from each, or two from b)
    int takenA = (fromA ? 1 : 0) + (fromA2 ? 1 : 0);
    float av3 = takenA == 0 ? a.v0 : takenA == 1 ? a.v1 : a.v2;
    int ai3 = takenA == 0 ? a.i0 : takenA == 1 ? a.i1 : a.i2;
    float bv3 = takenA == 2 ? b.v0 : takenA == 1 ? b.v1 : b.v2;
    int bi3 = takenA == 2 ? b.i0 : takenA == 1 ? b.i1 : b.i2;
    boolean fromA3 = above(av3, ai3, bv3, bi3);
    return new Top3(v0, i0, v1, i1, fromA3 ? av3 : bv3, fromA3 ? ai3 : bi3);
  }

  /** Each of the three values moves with the element it came from, and no other. */
  @ElementGradient
  public static Top3 gradient(Top3 t, Top3 dt, Top3 e) {
    float d = e.i0 < 0 ? 0f
        : e.i0 == t.i0 ? dt.v0 : e.i0 == t.i1 ? dt.v1 : e.i0 == t.i2 ? dt.v2 : 0f;
    return new Top3(d, 0, 0f, 0, 0f, 0);
  }
}
