package ir.io;

import dev.kiln.*;
import static dev.kiln.KMath.*;

/** Operators that use every corner of the IR, for the IR's write/read round trip. */
public final class Edges {
  static final float FLOAT_INF = Float.POSITIVE_INFINITY;
  static final double DOUBLE_NAN = Double.NaN;

  /** Special floating literals: NaN, -0.0, infinities, the smallest subnormals. */
  @Operator
  public static double specials(float x, double y) {
    float a = x > 0f ? Float.NaN : -0.0f;
    float b = x < -1f ? FLOAT_INF : Float.NEGATIVE_INFINITY;
    double c = y > 0.0 ? DOUBLE_NAN : -0.0;
    double d = y < 1.0 ? Double.MIN_VALUE : Double.NEGATIVE_INFINITY;
    return a + b + c + d + Float.MIN_VALUE + 0.1f + 0.1;
  }

  /** Every scalar type: long and int extremes, shifts, bit operations, booleans. */
  @Operator
  public static long integers(long a, int b, boolean c) {
    long m = Long.MIN_VALUE + a;
    int n = Integer.MIN_VALUE ^ b;
    int s = (b << 3) >> 1 >>> 2;
    boolean d = !c && b != 0 || a == 7L;
    long r = d ? m : ~m;
    return r * 3L - (n & 0xff) + (s | 5) + a % 9L + (long) b / 4;
  }

  /** Math calls of one, two and three arguments; casts both ways. */
  @Operator
  public static float calls(float x, double y) {
    double p = Math.pow(y, 2.0) + Math.atan2(y, 1.0) + Math.fma(y, y, 1.0);
    float q = max(x, 0f) + min(x, 1f) + abs(x) + sqrt(x * x) + log(exp(x));
    return (float) p + q + (float) (int) x;
  }

  /** Nested and stepped loops, a guarded loop, integer division in a loop, guarded stores. */
  @Operator
  public static void loops(@Dim int M, @Dim int K, @Shape("M, 2*K + 1") float[] w, @Shape("K") int[] idx,
                           int stride, @Out @Shape("M") float[] y, @Out @Shape("M") double[] z) {
    for (@Parallel int m = 0; m < M; m++) {
      float acc = 0f;
      double total = 0.0;
      for (int k = 0; k < K; k += 2) {
        int j = idx[k] / stride;
        for (int l = 0; l < 2; l++) {
          acc += w[m * (2 * K + 1) + k + l] * j;
          total = total + acc;
        }
      }
      if (acc > 0f) {
        for (int k = 1; k < K; k++) {
          acc = acc * 0.5f + w[m * (2 * K + 1) + 2 * K];
        }
        y[m] = acc;
      } else {
        y[m] = -acc;
      }
      z[m] = total;
    }
  }

  /** Reductions of every kind, one with a guarded accumulation. */
  @Operator
  public static void reductions(@Dim int B, @Dim int N, @Shape("B, N") double[] x, @Out @Reduce @Shape("B") double[] s,
                                @Out @Reduce @Shape("B") double[] p, @Out @Reduce @Shape("B") double[] hi,
                                @Out @Reduce @Shape("1") int[] count) {
    for (@Parallel int b = 0; b < B; b++)
      for (@Parallel int n = 0; n < N; n++) {
        double v = x[b * N + n];
        s[b] += v;
        p[b] *= v;
        hi[b] = Math.max(hi[b], v);
        if (v > 0.0) {
          count[0] += 1;
        }
      }
  }

  /** A single worker (no @Parallel loop) with a sized prologue. */
  @Operator
  public static void single(@Dim int N, @Shape("N - 1 + 1") float[] x, @Out @Shape("1") float[] out) {
    float acc = 0f;
    for (int i = 0; i < N; i++) acc = max(acc, x[i]);
    out[0] = acc;
  }
}
