package fusion;

import dev.kiln.*;

/** OVL's running example: split, add, add, mul, concat. */
public final class Ovl {
  @Operator
  public static void split2(@Dim int N, @Shape("2*N") float[] x, @Out @Shape("N") float[] lo, @Out @Shape("N") float[] hi) {
    for (@Parallel int i = 0; i < N; i++) {
      lo[i] = x[i];
      hi[i] = x[N + i];
    }
  }

  @Operator
  public static void add(@Dim int N, @Shape("N") float[] a, @Shape("N") float[] b, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = a[i] + b[i];
    }
  }

  @Operator
  public static void mul(@Dim int N, @Shape("N") float[] a, @Shape("N") float[] b, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = a[i] * b[i];
    }
  }

  @Operator
  public static void concat2(@Dim int N, @Shape("N") float[] a, @Shape("N") float[] b, @Out @Shape("2*N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = a[i];
      out[N + i] = b[i];
    }
  }

  @Operator
  public static void ovl(@Dim int N, @Shape("2*N") float[] x, @Shape("N") float[] y, @Out @Shape("2*N") float[] out) {
    float[] lo = new float[N];
    float[] hi = new float[N];
    split2(N, x, lo, hi);
    float[] a = new float[N];
    add(N, lo, y, a);
    float[] b = new float[N];
    add(N, hi, y, b);
    float[] p = new float[N];
    mul(N, a, b, p);
    concat2(N, a, p, out);
  }
}
