package ir.io;

import dev.kiln.Dim;
import dev.kiln.ElementGradient;
import dev.kiln.Identity;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Reduce;
import dev.kiln.Shape;

/** Operators that combine into arrays of records (user monoids), for the IR text's round trip. */
public final class MonoidOps {
  private MonoidOps() {}

  /** Count, mean and spread; Chan's combine; a gradient for each element. */
  public record Stats(float n, float mean, float m2) {
    @Identity
    public static Stats empty() {
      return new Stats(0f, 0f, 0f);
    }

    public static Stats of(float x) {
      return new Stats(1f, x, 0f);
    }

    public Stats combine(Stats o) {
      if (o.n == 0f) {
        return this;
      }
      if (n == 0f) {
        return o;
      }
      float total = n + o.n;
      float d = o.mean - mean;
      return new Stats(total, mean + d * (o.n / total), m2 + o.m2 + d * d * (n * o.n / total));
    }

    @ElementGradient
    public static Stats gradient(Stats t, Stats dt, Stats e) {
      if (t.n == 0f) {
        return new Stats(0f, 0f, 0f);
      }
      float d = e.mean - t.mean;
      return new Stats(dt.n + dt.mean * d / t.n + dt.m2 * d * d, dt.mean * e.n / t.n + dt.m2 * 2f * e.n * d, dt.m2);
    }
  }

  /** A value and its index, the larger value kept (the first on ties); no gradient. */
  public record Best(float value, int index) {
    @Identity
    public static Best none() {
      return new Best(Float.NEGATIVE_INFINITY, -1);
    }

    public static Best better(Best a, Best b) {
      return b.value > a.value || (b.value == a.value && b.index >= 0 && (a.index < 0 || b.index < a.index)) ? b : a;
    }
  }

  /** Over all workers. */
  @Operator
  public static void stats(@Dim int N, @Shape("N") float[] x, @Out @Reduce @Shape("1") Stats[] s) {
    for (@Parallel int i = 0; i < N; i++) {
      s[0] = s[0].combine(Stats.of(x[i]));
    }
  }

  /** By columns, through a sequential loop, under a guard. */
  @Operator
  public static void positiveColumnStats(@Dim int B, @Dim int N, @Shape("B, N") float[] x,
      @Out @Reduce @Shape("N") Stats[] s) {
    for (@Parallel int b = 0; b < B; b++) {
      for (int k = 0; k < N; k++) {
        if (x[b * N + k] > 0f) {
          s[k] = s[k].combine(Stats.of(x[b * N + k]));
        }
      }
    }
  }

  /** Two monoids in one operator, one of them with an int component. */
  @Operator
  public static void statsAndBest(@Dim int N, @Shape("N") float[] x, @Out @Reduce @Shape("1") Stats[] s,
      @Out @Reduce @Shape("1") Best[] m) {
    for (@Parallel int i = 0; i < N; i++) {
      s[0] = s[0].combine(Stats.of(x[i]));
      m[0] = Best.better(m[0], new Best(x[i], i));
    }
  }
}
