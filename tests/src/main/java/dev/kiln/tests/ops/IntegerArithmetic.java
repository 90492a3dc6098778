package dev.kiln.tests.ops;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Shape;

/**
 * Java's {@code int} and {@code long} arithmetic where C's differs: sums, differences, products,
 * negations and left shifts wrap (C's signed overflow is undefined, and nvcc may assume it never
 * happens), {@code MIN / -1} is {@code MIN} and {@code MIN % -1} is 0 (x86 traps), and a row's int
 * sum that overflows wraps too. The CUDA kernels compute them on the unsigned types and through
 * {@code kiln::java_div} and {@code kiln::java_rem}.
 */
public final class IntegerArithmetic {
  /** Operands where C's arithmetic and Java's part ways, and ordinary ones beside them. */
  public static final long[] EDGES = {0, 1, -1, 2, -2, 7, -7, 31, 32, 33, 63, 64, 46341, 65536, 1103515245,
      -123456789, Integer.MAX_VALUE, Integer.MIN_VALUE, Integer.MAX_VALUE - 1, Integer.MIN_VALUE + 1,
      3037000500L, 6364136223846793005L, Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE - 1, Long.MIN_VALUE + 1};

  private IntegerArithmetic() {}

  /** Every pair of {@link #EDGES}: {@code {a, b}}, {@code EDGES.length^2} of each. */
  public static long[][] edgePairs() {
    long[] a = new long[EDGES.length * EDGES.length];
    long[] b = new long[a.length];
    for (int i = 0; i < EDGES.length; i++) {
      for (int j = 0; j < EDGES.length; j++) {
        a[i * EDGES.length + j] = EDGES[i];
        b[i * EDGES.length + j] = EDGES[j];
      }
    }
    return new long[][] {a, b};
  }

  /** {@code values} narrowed to ints, as Java narrows them. */
  public static int[] narrowed(long[] values) {
    int[] out = new int[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = (int) values[i];
    }
    return out;
  }

  @Operator
  public static void intOps(@Dim int N, @Shape("N") int[] a, @Shape("N") int[] b, @Out @Shape("N") int[] sum,
      @Out @Shape("N") int[] difference, @Out @Shape("N") int[] product, @Out @Shape("N") int[] quotient,
      @Out @Shape("N") int[] remainder, @Out @Shape("N") int[] negated, @Out @Shape("N") int[] shifted) {
    for (@Parallel int i = 0; i < N; i++) {
      int x = a[i];
      int y = b[i];
      sum[i] = x + y;
      difference[i] = x - y;
      product[i] = x * y;
      quotient[i] = y == 0 ? 0 : x / y;
      remainder[i] = y == 0 ? 0 : x % y;
      negated[i] = -x;
      shifted[i] = x << y;
    }
  }

  @Operator
  public static void longOps(@Dim int N, @Shape("N") long[] a, @Shape("N") long[] b, @Out @Shape("N") long[] sum,
      @Out @Shape("N") long[] difference, @Out @Shape("N") long[] product, @Out @Shape("N") long[] quotient,
      @Out @Shape("N") long[] remainder, @Out @Shape("N") long[] negated, @Out @Shape("N") long[] shifted) {
    for (@Parallel int i = 0; i < N; i++) {
      long x = a[i];
      long y = b[i];
      sum[i] = x + y;
      difference[i] = x - y;
      product[i] = x * y;
      quotient[i] = y == 0 ? 0 : x / y;
      remainder[i] = y == 0 ? 0 : x % y;
      negated[i] = -x;
      shifted[i] = x << y;
    }
  }

  /** A linear congruential step, the multiply-add of many hashes: it overflows for most inputs. */
  @Operator
  public static void lcg(@Dim int N, @Shape("N") int[] x, @Out @Shape("N") int[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = x[i] * 1103515245 + 12345;
    }
  }

  /** Each row's int sum, in a row kernel on CUDA: it wraps when it overflows. */
  @Operator
  public static void rowSums(@Dim int B, @Dim int N, @Shape("B, N") int[] x, @Out @Shape("B") int[] s) {
    for (@Parallel int b = 0; b < B; b++) {
      int acc = 0;
      for (int k = 0; k < N; k++) {
        acc += x[b * N + k];
      }
      s[b] = acc;
    }
  }
}
