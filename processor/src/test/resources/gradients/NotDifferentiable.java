package gradients;

import dev.kiln.*;

public final class NotDifferentiable {
  /** A scan stores its carried sum in every iteration. */
  @Operator
  public static void prefix(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      float acc = 0f;
      for (int i = 0; i < N; i++) { // note: KILN043 'prefix' gets no derived gradient: the loop-carried value 'acc'
        acc += x[b * N + i];
        out[b * N + i] = acc;
      }
    }
  }

  @Operator
  public static void product(@Dim int N, @Shape("N") float[] x, @Out @Reduce @Shape("1") float[] p) {
    for (@Parallel int i = 0; i < N; i++) {
      p[0] *= x[i]; // note: KILN043 'p' is a @Reduce product
    }
  }

  @Operator
  public static void pick(@Dim int N, @Shape("N") float[] x, @Shape("N") int[] idx, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = x[idx[i]]; // note: KILN043 the index of 'x' is not an affine function
    }
  }

  @Operator
  public static void lastAbove(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      for (int k = 0; k < N; k++) {
        if (x[k] > x[i]) {
          out[i] = x[k]; // note: KILN043 a worker may write an element of 'out' more than once
        }
      }
    }
  }

  /** Iteration k + 1's first store overwrites iteration k's second: that value reaches nothing. */
  @Operator
  public static void overlapping(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, 2 * N") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      for (int k = 0; k < N; k++) {
        out[b * 2 * N + k] = x[b * N + k]; // note: KILN043 a worker may write an element of 'out' more than once
        out[b * 2 * N + k + 1] = 2f * x[b * N + k];
      }
    }
  }

  /** Both stores step by 2, N apart: for even N they meet (k and k' + N / 2). */
  @Operator
  public static void stridedPair(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, 4 * N") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      for (int k = 0; k < N; k++) {
        out[b * 4 * N + 2 * k] = x[b * N + k]; // note: KILN043 a worker may write an element of 'out' more than once
        out[b * 4 * N + 2 * k + N] = 2f * x[b * N + k];
      }
    }
  }

  /** Both stores step by 2, 2N apart: each writes its own elements, and the gradient is derived. */
  @Operator
  public static void stridedHalves(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, 4 * N") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      for (int k = 0; k < N; k++) {
        out[b * 4 * N + 2 * k] = x[b * N + k];
        out[b * 4 * N + 2 * k + 2 * N] = 2f * x[b * N + k];
      }
    }
  }

  /** One store in two loops: i = 1, k and i = 0, k + 1 write the same element. */
  @Operator
  public static void shifted(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, 2 * N") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      for (int i = 0; i < 2; i++) {
        for (int k = 0; k < N; k++) {
          out[b * 2 * N + i + k] = x[b * N + k] * (i + 1); // note: KILN043 a worker may write an element of 'out' more than once
        }
      }
    }
  }

  /**
   * Two stores H apart inside a loop over j whose rows are H apart: j + 1's first store overwrites
   * j's second (the inner loop alone keeps them apart).
   */
  @Operator
  public static void acrossOuter(@Dim int B, @Dim int H, @Shape("B, H") float[] x, @Out @Shape("B, 3 * H") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      for (int j = 0; j < 2; j++) {
        for (int k = 0; k < H; k++) {
          out[b * 3 * H + j * H + k] = x[b * H + k] * (j + 1); // note: KILN043 a worker may write an element of 'out' more than once
          out[b * 3 * H + j * H + H + k] = 2f * x[b * H + k];
        }
      }
    }
  }

  /** The second loop overwrites what the first wrote. */
  @Operator
  public static void rewritten(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      for (int k = 0; k < N; k++) {
        out[b * N + k] = x[b * N + k] * x[b * N + k];
      }
      for (int k = 0; k < N; k++) {
        out[b * N + k] = 3f * x[b * N + k]; // note: KILN043 a worker may write an element of 'out' more than once
      }
    }
  }

  /** The second loop carrying 's' is a product; the note names 's' as the source does, not Kiln's 's_2'. */
  @Operator
  public static void secondLoop(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      float s = 0f;
      for (int k = 0; k < N; k++) {
        s += x[b * N + k];
      }
      for (int k = 0; k < N; k++) { // note: KILN043 the loop-carried value 's' is updated
        s = s * x[b * N + k];
      }
      y[b] = s;
    }
  }

  /** A user monoid whose record declares no @ElementGradient: the note is on the update. */
  public record Sum(float s) {
    @Identity
    public static Sum zero() {
      return new Sum(0f);
    }

    public Sum plus(Sum o) {
      return new Sum(s + o.s);
    }
  }

  @Operator
  public static void total(@Dim int N, @Shape("N") float[] x, @Out @Reduce @Shape("1") Sum[] t) {
    for (@Parallel int i = 0; i < N; i++) {
      t[0] = t[0].plus(new Sum(x[i])); // note: KILN043 Sum declares no @ElementGradient method
    }
  }

  /** Integer operators have nothing to differentiate: no note. */
  @Operator
  public static void twice(@Dim int N, @Shape("N") int[] x, @Out @Shape("N") int[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = 2 * x[i];
    }
  }
}
