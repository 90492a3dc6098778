package dev.kiln.processor.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Random choices the generators share. */
final class Picks {
  private Picks() {}

  @SafeVarargs
  static <T> T one(SplittableRandom r, T... options) {
    return options[r.nextInt(options.length)];
  }

  static <T> T one(SplittableRandom r, List<T> options) {
    return options.get(r.nextInt(options.size()));
  }

  /** One of {@code valuesAndWeights} = value, weight, value, weight, ... */
  @SuppressWarnings("unchecked")
  static <T> T weighted(SplittableRandom r, Object... valuesAndWeights) {
    int total = 0;
    for (int k = 1; k < valuesAndWeights.length; k += 2) {
      total += (Integer) valuesAndWeights[k];
    }
    int roll = r.nextInt(total);
    for (int k = 0; k < valuesAndWeights.length; k += 2) {
      roll -= (Integer) valuesAndWeights[k + 1];
      if (roll < 0) {
        return (T) valuesAndWeights[k];
      }
    }
    throw new AssertionError();
  }

  /** {@code list} in a random order. */
  static <T> List<T> shuffled(SplittableRandom r, List<T> list) {
    List<T> out = new ArrayList<>(list);
    for (int k = out.size() - 1; k > 0; k--) {
      int j = r.nextInt(k + 1);
      T t = out.get(k);
      out.set(k, out.get(j));
      out.set(j, t);
    }
    return out;
  }

  static boolean chance(SplittableRandom r, int percent) {
    return r.nextInt(100) < percent;
  }
}
