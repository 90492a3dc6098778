package dev.kiln.processor.fuzz;

import java.lang.reflect.Array;
import java.util.SplittableRandom;

/**
 * Random argument values, and the comparison of results: floats and doubles compare by their bits
 * ({@code floatToIntBits}, so every NaN equals every NaN, infinities equal themselves, and {@code
 * -0f} differs from {@code 0f}).
 */
final class Values {
  private static final float[] SPECIAL_FLOATS = {
    0f, -0f, 1f, -1f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.MAX_VALUE,
    -Float.MAX_VALUE, Float.MIN_VALUE, 1e-40f, -1e-40f, 10f, -10f, 0.5f
  };
  private static final int[] SPECIAL_INTS = {0, 1, -1, Integer.MAX_VALUE, Integer.MIN_VALUE, 1 << 16, 46341};
  private static final long[] SPECIAL_LONGS = {0, 1, -1, Long.MAX_VALUE, Long.MIN_VALUE, 1L << 53, 9_007_199_791_611_905L};

  private Values() {}

  /** A value of type {@code t}; with {@code specialPercent} per cent a special one (NaN, -0f, ...). */
  static Object scalar(SplittableRandom r, FuzzType t, int specialPercent) {
    boolean special = r.nextInt(100) < specialPercent;
    switch (t) {
      case FLOAT:
        return floatValue(r, special);
      case DOUBLE:
        return r.nextInt(4) == 0 && !special ? r.nextDouble(-3, 3) : (double) floatValue(r, special);
      case INT:
        return special ? SPECIAL_INTS[r.nextInt(SPECIAL_INTS.length)] : r.nextInt(-20, 21);
      case LONG:
        return special ? SPECIAL_LONGS[r.nextInt(SPECIAL_LONGS.length)] : (long) r.nextInt(-20, 21);
      default:
        return r.nextBoolean();
    }
  }

  private static float floatValue(SplittableRandom r, boolean special) {
    if (special) {
      return SPECIAL_FLOATS[r.nextInt(SPECIAL_FLOATS.length)];
    }
    switch (r.nextInt(10)) {
      case 0:
        return r.nextInt(-4, 5);
      case 1:
        return (float) (r.nextDouble(-1, 1) * Math.pow(10, r.nextInt(1, 12)));
      default:
        return (float) r.nextDouble(-3, 3);
    }
  }

  /** An array of {@code length} values of type {@code t}. */
  static Object array(SplittableRandom r, FuzzType t, int length, int specialPercent) {
    Object a = Array.newInstance(t.primitive(), length);
    for (int i = 0; i < length; i++) {
      Array.set(a, i, scalar(r, t, specialPercent));
    }
    return a;
  }

  /** A copy of an argument: arrays are cloned, scalars shared. */
  static Object copy(Object value) {
    if (value != null && value.getClass().isArray()) {
      int n = Array.getLength(value);
      Object c = Array.newInstance(value.getClass().getComponentType(), n);
      System.arraycopy(value, 0, c, 0, n);
      return c;
    }
    return value;
  }

  /** Copies of every argument (see {@link #copy}). */
  static Object[] copyAll(Object[] args) {
    Object[] c = new Object[args.length];
    for (int k = 0; k < args.length; k++) {
      c[k] = copy(args[k]);
    }
    return c;
  }

  static boolean sameBits(Object a, Object b) {
    if (a instanceof Float x && b instanceof Float y) {
      return Float.floatToIntBits(x) == Float.floatToIntBits(y);
    }
    if (a instanceof Double x && b instanceof Double y) {
      return Double.doubleToLongBits(x) == Double.doubleToLongBits(y);
    }
    return a.equals(b);
  }

  /** The first index where two arrays differ in bits, or -1. */
  static int firstDifference(Object expected, Object actual) {
    int n = Array.getLength(expected);
    if (Array.getLength(actual) != n) {
      return 0;
    }
    for (int i = 0; i < n; i++) {
      if (!sameBits(Array.get(expected, i), Array.get(actual, i))) {
        return i;
      }
    }
    return -1;
  }

  /** A value with its bits, for messages: {@code 1.5 (0x3fc00000)}. */
  static String describe(Object v) {
    if (v instanceof Float f) {
      return f + " (0x" + Integer.toHexString(Float.floatToRawIntBits(f)) + ")";
    }
    if (v instanceof Double d) {
      return d + " (0x" + Long.toHexString(Double.doubleToRawLongBits(d)) + ")";
    }
    return String.valueOf(v);
  }
}
