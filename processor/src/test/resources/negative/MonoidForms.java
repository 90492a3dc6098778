package negative;

import dev.kiln.*;

public final class MonoidForms {
  record Sum(float s, int n) {
    @Identity
    static Sum zero() {
      return new Sum(0f, 0);
    }

    Sum plus(Sum o) {
      return new Sum(s + o.s, n + o.n);
    }

    Sum add(float x) {
      return new Sum(s + x, n + 1);
    }

    float total() {
      return s;
    }
  }

  @Operator
  public static void notACall(@Dim int N, @Shape("N") float[] x, @Out @Reduce @Shape("1") Sum[] r) {
    for (@Parallel int i = 0; i < N; i++) {
      r[0] = new Sum(x[i], 1); // error: KILN056 'r' is assigned 'new Sum(x[i], 1)'
    }
  }

  @Operator
  public static void notACombine(@Dim int N, @Shape("N") float[] x, @Out @Reduce @Shape("1") Sum[] r) {
    for (@Parallel int i = 0; i < N; i++) {
      r[0] = r[0].add(x[i]); // error: KILN056 does not take and return Sum values only
    }
  }

  @Operator
  public static void otherElement(@Dim int N, @Shape("N") float[] x, @Out @Reduce @Shape("N") Sum[] r) {
    for (@Parallel int i = 0; i < N; i++) {
      r[i] = r[0].plus(new Sum(x[i], 1)); // error: KILN056 does not start from the same element
    }
  }

  @Operator
  public static void read(@Dim int N, @Shape("N") float[] x, @Out @Reduce @Shape("1") Sum[] r, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      r[0] = r[0].plus(new Sum(x[i], 1));
      y[i] = r[0].total(); // error: KILN056 is used outside an update
    }
  }

  @Operator
  public static void writesInput(@Dim int N, @Shape("N") Sum[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      x[i] = new Sum(1f, 1); // error: KILN019
      y[i] = x[i].total();
    }
  }

  @Operator
  public static void readsOutput(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") Sum[] r, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      r[i] = new Sum(x[i], 1);
      y[i] = r[i].total(); // error: KILN020 'r'
    }
  }

  @Operator
  public static void asANumber(@Dim int N, @Shape("N") Sum[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = x[i] + 1f; // error: KILN056 is a Sum where a number is expected
    }
  }

  @Operator
  public static void never(@Dim int N, @Shape("N") float[] x, @Out @Reduce @Shape("1") Sum[] r) { // error: KILN056 'r' is never updated
  }
}
