package dev.kiln.runtime;

/**
 * Argument checks that generated launchers run before any work. Every message names the operator
 * and the argument, and says what was expected and what was given. The failing paths build their
 * messages; the passing paths allocate nothing.
 */
public final class Checks {
  private Checks() {}

  /**
   * An {@code @Out} array must not be the same array as another argument, unless the compiler proved
   * the operator safe in place for that pair (it then emits no check): a kernel that reads an array it
   * is writing would see its own or another worker's new values, where the plain method (run in its
   * own order) may not.
   */
  public static void distinct(String operator, String out, Object outArray, String other, Object otherArray) {
    if (outArray == otherArray && outArray != null) {
      throw new IllegalArgumentException(operator + ": @Out argument '" + out + "' is the same array as argument '"
          + other + "'; " + operator + " does not run in place (a worker would read what workers have already"
          + " written), so pass a separate array for '" + out + "'. Kiln allows it only where each worker reads '"
          + other + "' just at the element it writes, before writing it (LANGUAGE.md, \"In-place calls\")");
    }
  }

  /** A {@code @Dim} size must not be negative. */
  public static void dim(String operator, String dim, int value) {
    if (value < 0) {
      throw new IllegalArgumentException(
          operator + ": @Dim " + dim + " must not be negative, but was " + value);
    }
  }

  /**
   * A size a composite operator computes from its {@code @Dim}s (a grid extent, a temporary's
   * length), which must fit in an {@code int}.
   */
  public static int size(String operator, String what, long value) {
    if (value < 0 || value > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          operator + ": " + what + " is " + value + ", outside 0.." + Integer.MAX_VALUE);
    }
    return (int) value;
  }

  /**
   * What a device launcher throws when its kernel found an index outside an array, where the CPU
   * launcher and plain Java throw {@code ArrayIndexOutOfBoundsException} from the access itself.
   */
  public static ArrayIndexOutOfBoundsException deviceIndexOutOfBounds(String operator, String arrays) {
    return new ArrayIndexOutOfBoundsException(operator + ": on CUDA, an index into " + arrays
        + " was outside the array (plain Java would throw ArrayIndexOutOfBoundsException there);"
        + " the outputs were left as they were");
  }

  /** An array argument must not be null. */
  public static void notNull(String operator, String argument, Object array) {
    if (array == null) {
      throw new IllegalArgumentException(operator + ": argument '" + argument + "' is null");
    }
  }

  /** {@code a * b}, saturating at {@code Long.MAX_VALUE} in magnitude instead of overflowing. */
  public static long mul(long a, long b) {
    try {
      return Math.multiplyExact(a, b);
    } catch (ArithmeticException overflow) {
      return (a < 0) == (b < 0) ? Long.MAX_VALUE : Long.MIN_VALUE;
    }
  }

  /** {@code a + b}, saturating. */
  public static long add(long a, long b) {
    long r = a + b;
    if (((a ^ r) & (b ^ r)) < 0) {
      return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    return r;
  }

  /**
   * The element count of a shape with these extents: their product, saturated at {@code
   * Long.MAX_VALUE}; -1 when an extent is negative.
   */
  public static long shapeLength(long e0) {
    return e0 < 0 ? -1 : e0;
  }

  public static long shapeLength(long e0, long e1) {
    return e0 < 0 || e1 < 0 ? -1 : mul(e0, e1);
  }

  public static long shapeLength(long e0, long e1, long e2) {
    return e0 < 0 || e1 < 0 || e2 < 0 ? -1 : mul(mul(e0, e1), e2);
  }

  public static long shapeLength(long... extents) {
    long n = 1;
    for (long e : extents) {
      if (e < 0) {
        return -1;
      }
      n = mul(n, e);
    }
    return n;
  }

  /**
   * The exception for an array whose length is not its shape's.
   *
   * @param expected from {@link #shapeLength}
   * @param dims the bound sizes, such as {@code "B=2, H=3"}
   */
  public static IllegalArgumentException badLength(
      String operator, String argument, String shape, long expected, int actual, String dims) {
    return badLength(operator, argument, shape, expected, (long) actual, dims);
  }

  /** As {@link #badLength(String, String, String, long, int, String)}, for device arrays. */
  public static IllegalArgumentException badLength(
      String operator, String argument, String shape, long expected, long actual, String dims) {
    String needs;
    if (expected < 0) {
      needs = "has a negative extent";
    } else if (expected > Integer.MAX_VALUE) {
      needs = "needs " + expected + " elements, more than a Java array holds";
    } else {
      needs = "needs length " + expected;
    }
    return new IllegalArgumentException(
        operator + ": argument '" + argument + "' has length " + actual + " but @Shape(\"" + shape
            + "\") " + needs + " (" + dims + ")");
  }

  /**
   * For elementwise launchers: an input of length 1 is broadcast; any other length must equal the
   * output's.
   */
  public static void broadcast(String operator, String argument, int actual, int outputLength) {
    broadcast(operator, argument, (long) actual, (long) outputLength);
  }

  /** As {@link #broadcast(String, String, int, int)}, for device arrays. */
  public static void broadcast(String operator, String argument, long actual, long outputLength) {
    if (actual != 1 && actual != outputLength) {
      throw new IllegalArgumentException(
          operator + ": argument '" + argument + "' has length " + actual
              + " but the output has length " + outputLength
              + "; an input must have the output's length or length 1 (broadcast)");
    }
  }
}
