package negative;

import dev.kiln.*;

public final class MonoidInComposite {
  record Sum(float s) {
    @Identity
    static Sum zero() {
      return new Sum(0f);
    }

    Sum plus(Sum o) {
      return new Sum(s + o.s);
    }
  }

  record Max(float m) {
    @Identity
    static Max none() {
      return new Max(Float.NEGATIVE_INFINITY);
    }

    Max or(Max o) {
      return new Max(Math.max(m, o.m));
    }
  }

  @Operator
  public static void total(@Dim int N, @Shape("N") float[] x, @Out @Reduce @Shape("1") Sum[] r) {
    for (@Parallel int i = 0; i < N; i++) {
      r[0] = r[0].plus(new Sum(x[i]));
    }
  }

  @Operator
  public static void zeros(@Dim int N, @Out @Shape("N") Sum[] r) {
    for (@Parallel int i = 0; i < N; i++) {
      r[i] = Sum.zero();
    }
  }

  @Operator
  public static void copy(@Dim int N, @Shape("N") Sum[] r, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = r[i].s();
    }
  }

  @Operator
  public static void twice(@Dim int N, @Shape("N") float[] x, @Out @Reduce @Shape("1") Sum[] r) {
    total(N, x, r);
    total(N, x, r);
  }

  @Operator
  public static void outNotFilled(@Dim int N, @Shape("N") float[] x, @Out @Shape("1") Sum[] r) {
    total(N, x, r); // error: KILN056 and a composite's @Out array is not read from its caller
  }

  @Operator
  public static void unfilled(@Dim int N, @Shape("N") float[] x, @Out @Shape("1") float[] y) {
    Sum[] t = new Sum[1];
    total(N, x, t); // error: KILN056 which combines into 'r', before any call writes its records: a new array of records holds nulls in Java
    copy(1, t, y); // error: KILN056 which reads 'r', before any call writes its records
  }

  @Operator
  public static void otherRecord(@Dim int N, @Shape("N") float[] x, @Out @Shape("1") float[] y) {
    Max[] t = new Max[1];
    total(N, x, t); // error: KILN038 't' holds Max records, and 'r' takes Sum records
    copy(1, t, y); // error: KILN038 't' holds Max records
  }

  @Operator
  public static void numbersForRecords(@Dim int N, @Shape("N") float[] x, @Out @Shape("1") float[] y) {
    float[] t = new float[1];
    total(N, x, t); // error: KILN038 pass an array of records of the composite (a parameter, or a temporary R[] t = new R[n]), by name
    copy(1, t, y); // error: KILN038 pass an array of records of the composite
  }
}
