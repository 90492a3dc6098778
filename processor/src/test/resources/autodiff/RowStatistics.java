package autodiff;

import static dev.kiln.KMath.exp;
import static dev.kiln.KMath.max;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Shape;

/** Row kernels whose gradients need their loops' results, and the loops that cannot be saved. */
public final class RowStatistics {
  private RowStatistics() {}

  /** Saved: the maximum and the sum of exponentials. */
  @Operator
  public static void softmax(@Dim int R, @Dim int N, @Shape("R, N") float[] x, @Out @Shape("R, N") float[] y) {
    for (@Parallel int r = 0; r < R; r++) {
      float m = Float.NEGATIVE_INFINITY;
      for (int k = 0; k < N; k++) {
        m = max(m, x[r * N + k]);
      }
      float s = 0f;
      for (int k = 0; k < N; k++) {
        s += exp(x[r * N + k] - m);
      }
      for (int k = 0; k < N; k++) {
        y[r * N + k] = exp(x[r * N + k] - m) / s;
      }
    }
  }

  /** A composite: its training forms hand over the statistics of the softmax it calls last. */
  @Operator
  public static void sharpened(@Dim int R, @Dim int N, @Shape("R, N") float[] x, @Out @Shape("R, N") float[] y) {
    float[] doubled = new float[R * N];
    twice(R * N, x, doubled);
    softmax(R, N, doubled, y);
  }

  /** Each element doubled. */
  @Operator
  public static void twice(@Dim int M, @Shape("M") float[] x, @Out @Shape("M") float[] y) {
    for (@Parallel int i = 0; i < M; i++) {
      y[i] = x[i] + x[i];
    }
  }

  /** Nothing to save: a sum's gradient does not read the sum. */
  @Operator
  public static void rowSum(@Dim int R, @Dim int N, @Shape("R, N") float[] x, @Out @Shape("R") float[] y) {
    for (@Parallel int r = 0; r < R; r++) {
      float s = 0f;
      for (int k = 0; k < N; k++) {
        s += x[r * N + k];
      }
      y[r] = s;
    }
  }

  /** Not saved: the loop that computes the scale runs only for some rows. */
  @Operator
  public static void scaledWhenPositive(@Dim int R, @Dim int N, @Shape("R, N") float[] x, @Shape("R") float[] flag,
      @Out @Shape("R, N") float[] y) {
    for (@Parallel int r = 0; r < R; r++) {
      float q = 1f;
      if (flag[r] > 0f) {
        q = 0f;
        for (int k = 0; k < N; k++) {
          q += x[r * N + k] * x[r * N + k];
        }
      }
      for (int k = 0; k < N; k++) {
        y[r * N + k] = x[r * N + k] * q;
      }
    }
  }

  /** Not saved: the loop that finds the scale also stores. */
  @Operator
  public static void copiedThenScaled(@Dim int R, @Dim int N, @Shape("R, N") float[] x, @Out @Shape("R, N") float[] c,
      @Out @Shape("R, N") float[] y) {
    for (@Parallel int r = 0; r < R; r++) {
      float q = 0f;
      for (int k = 0; k < N; k++) {
        c[r * N + k] = x[r * N + k];
        q += x[r * N + k] * x[r * N + k];
      }
      for (int k = 0; k < N; k++) {
        y[r * N + k] = x[r * N + k] * q;
      }
    }
  }
}
