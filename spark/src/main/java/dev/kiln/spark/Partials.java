package dev.kiln.spark;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.List;

/**
 * The partial results of a {@code @Reduce} output: each part's, started from the reduction's
 * identity, combined in a fixed pairwise tree in part order (parts 0 and 1, 2 and 3, ..., then the
 * sums of pairs), so that a given partitioning gives the same bits on every run whatever order the
 * parts finish in; then folded into the caller's array as the operator would fold its terms.
 */
final class Partials {
  private Partials() {}

  /** An array like {@code like} filled with the identity of {@code op} ({@code + * max min}). */
  static Object identity(Object like, String op) {
    int n = Array.getLength(like);
    Object a = Array.newInstance(like.getClass().getComponentType(), n);
    if (a instanceof float[] f) {
      java.util.Arrays.fill(f, switch (op) { case "*" -> 1f; case "max" -> Float.NEGATIVE_INFINITY; case "min" -> Float.POSITIVE_INFINITY; default -> 0f; });
    } else if (a instanceof double[] d) {
      java.util.Arrays.fill(d, switch (op) { case "*" -> 1d; case "max" -> Double.NEGATIVE_INFINITY; case "min" -> Double.POSITIVE_INFINITY; default -> 0d; });
    } else if (a instanceof int[] i) {
      java.util.Arrays.fill(i, switch (op) { case "*" -> 1; case "max" -> Integer.MIN_VALUE; case "min" -> Integer.MAX_VALUE; default -> 0; });
    } else if (a instanceof long[] l) {
      java.util.Arrays.fill(l, switch (op) { case "*" -> 1L; case "max" -> Long.MIN_VALUE; case "min" -> Long.MAX_VALUE; default -> 0L; });
    } else {
      throw new IllegalArgumentException("a @Reduce output of " + like.getClass().getSimpleName());
    }
    return a;
  }

  /** The parts' partial arrays combined in the fixed tree. */
  static Object tree(List<Object> parts, String op) {
    List<Object> level = new ArrayList<>(parts);
    while (level.size() > 1) {
      List<Object> next = new ArrayList<>();
      for (int i = 0; i < level.size(); i += 2) {
        next.add(i + 1 < level.size() ? combine(level.get(i), level.get(i + 1), op) : level.get(i));
      }
      level = next;
    }
    return level.get(0);
  }

  /** {@code into[i] = into[i] op from[i]} for every element. */
  static void foldInto(Object into, Object from, String op) {
    Object c = combine(into, from, op);
    System.arraycopy(c, 0, into, 0, Array.getLength(into));
  }

  private static Object combine(Object a, Object b, String op) {
    if (a instanceof float[] x) {
      float[] y = (float[]) b;
      float[] r = new float[x.length];
      for (int i = 0; i < r.length; i++) {
        r[i] = switch (op) { case "*" -> x[i] * y[i]; case "max" -> Math.max(x[i], y[i]); case "min" -> Math.min(x[i], y[i]); default -> x[i] + y[i]; };
      }
      return r;
    }
    if (a instanceof double[] x) {
      double[] y = (double[]) b;
      double[] r = new double[x.length];
      for (int i = 0; i < r.length; i++) {
        r[i] = switch (op) { case "*" -> x[i] * y[i]; case "max" -> Math.max(x[i], y[i]); case "min" -> Math.min(x[i], y[i]); default -> x[i] + y[i]; };
      }
      return r;
    }
    if (a instanceof int[] x) {
      int[] y = (int[]) b;
      int[] r = new int[x.length];
      for (int i = 0; i < r.length; i++) {
        r[i] = switch (op) { case "*" -> x[i] * y[i]; case "max" -> Math.max(x[i], y[i]); case "min" -> Math.min(x[i], y[i]); default -> x[i] + y[i]; };
      }
      return r;
    }
    long[] x = (long[]) a;
    long[] y = (long[]) b;
    long[] r = new long[x.length];
    for (int i = 0; i < r.length; i++) {
      r[i] = switch (op) { case "*" -> x[i] * y[i]; case "max" -> Math.max(x[i], y[i]); case "min" -> Math.min(x[i], y[i]); default -> x[i] + y[i]; };
    }
    return r;
  }
}
