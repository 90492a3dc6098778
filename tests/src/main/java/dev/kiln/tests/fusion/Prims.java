package dev.kiln.tests.fusion;

import static dev.kiln.KMath.*;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Shape;

/** Small operators that the composites in {@link Composites} are made of. */
public final class Prims {
  private Prims() {}

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
  public static void addScalar(@Dim int N, @Shape("N") float[] x, float s, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = x[i] + s;
    }
  }

  @Operator
  public static void sigmoidMap(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = 1f / (1f + exp(-x[i]));
    }
  }

  @Operator
  public static void tanhMap(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = tanh(x[i]);
    }
  }

  @Operator
  public static void expMap(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = exp(x[i]);
    }
  }

  /** Splits each row of x [B, 4H] into four gates [B, H]. */
  @Operator
  public static void split4(@Dim int B, @Dim int H, @Shape("B, 4*H") float[] x,
      @Out @Shape("B, H") float[] a, @Out @Shape("B, H") float[] b, @Out @Shape("B, H") float[] c, @Out @Shape("B, H") float[] d) {
    for (@Parallel int r = 0; r < B; r++) {
      for (@Parallel int h = 0; h < H; h++) {
        a[r * H + h] = x[r * 4 * H + h];
        b[r * H + h] = x[r * 4 * H + H + h];
        c[r * H + h] = x[r * 4 * H + 2 * H + h];
        d[r * H + h] = x[r * 4 * H + 3 * H + h];
      }
    }
  }

  /** Splits x [2N] into its halves. */
  @Operator
  public static void split2(@Dim int N, @Shape("2*N") float[] x, @Out @Shape("N") float[] lo, @Out @Shape("N") float[] hi) {
    for (@Parallel int i = 0; i < N; i++) {
      lo[i] = x[i];
      hi[i] = x[N + i];
    }
  }

  /** out [2N] = a then b. */
  @Operator
  public static void concat2(@Dim int N, @Shape("N") float[] a, @Shape("N") float[] b, @Out @Shape("2*N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = a[i];
      out[N + i] = b[i];
    }
  }

  @Operator
  public static void rowMax(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      float m = x[b * N];
      for (int n = 1; n < N; n++) {
        m = max(m, x[b * N + n]);
      }
      out[b] = m;
    }
  }

  @Operator
  public static void rowSum(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      float s = 0f;
      for (int n = 0; n < N; n++) {
        s += x[b * N + n];
      }
      out[b] = s;
    }
  }

  /** out[b, n] = x[b, n] - r[b]. */
  @Operator
  public static void subRow(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("B") float[] r, @Out @Shape("B, N") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int n = 0; n < N; n++) {
        out[b * N + n] = x[b * N + n] - r[b];
      }
    }
  }

  /** out[b, n] = x[b, n] / r[b]. */
  @Operator
  public static void divRow(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("B") float[] r, @Out @Shape("B, N") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int n = 0; n < N; n++) {
        out[b * N + n] = x[b * N + n] / r[b];
      }
    }
  }
}
