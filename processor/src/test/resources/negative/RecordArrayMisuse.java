package negative;

import dev.kiln.*;

public final class RecordArrayMisuse {
  record Sum(float s) {
    @Identity
    static Sum zero() {
      return new Sum(0f);
    }

    Sum combine(Sum o) {
      return new Sum(s + o.s);
    }

    static Sum combine(Sum a, Sum b) {
      return new Sum(a.s * b.s);
    }
  }

  private record Hidden(float v) {}

  @Operator
  public static void both(@Dim int N, @Shape("N") float[] x, @Out @Reduce @Shape("1") Sum[] r) {
    for (@Parallel int i = 0; i < N; i++) {
      r[0] = r[0].combine(new Sum(x[i]));
      r[0] = Sum.combine(r[0], new Sum(x[i])); // error: KILN056 is combined with both combine and the static combine
    }
  }

  @Operator
  public static void hidden(@Dim int N, @Shape("N") Hidden[] h, @Out @Shape("N") float[] y) { // error: KILN056 the record Hidden is private
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = h[i].v();
    }
  }

  @Operator
  public static void clash(@Dim int N, @Shape("N") Sum[] t, @Shape("N") float[] t_s, @Out @Shape("N") float[] y) { // error: KILN056 would be named 't_s'
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = t[i].s() + t_s[i];
    }
  }

  @Operator
  public static void unwritten(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") Sum[] r) { // error: KILN010 @Out parameter 'r' is never written
    for (@Parallel int i = 0; i < N; i++) {
      float unused = x[i];
    }
  }
}
