package fusion;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Reduce;
import dev.kiln.Shape;

/** Totals over all workers and the calls that read them. */
public final class Totals {
  private Totals() {}

  @Operator
  public static void sumSquares(@Dim int N, @Shape("N") float[] x, @Out @Reduce @Shape("1") float[] s) {
    for (@Parallel int i = 0; i < N; i++) {
      s[0] += x[i] * x[i];
    }
  }

  @Operator
  public static void rootMean(@Dim int N, @Shape("1") float[] s, @Out @Shape("1") float[] out) {
    out[0] = (float) Math.sqrt(s[0] / N);
  }

  @Operator
  public static void pick(@Shape("2") int[] which, @Shape("1") float[] s, @Out @Shape("1") float[] out) {
    out[0] = s[which[0]];
  }

  @Operator
  public static void scaled(@Dim int N, @Shape("N") float[] x, @Shape("1") float[] s, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = x[i] * s[0];
    }
  }

  /** The root of the mean square: one kernel, the root after every worker. */
  @Operator
  public static void rms(@Dim int N, @Shape("N") float[] x, @Out @Shape("1") float[] out) {
    float[] s = new float[1];
    sumSquares(N, x, s);
    rootMean(N, s, out);
  }

  /** A scalar call that reads the total at an index from data: a kernel of its own. */
  @Operator
  public static void picked(@Dim int N, @Shape("N") float[] x, @Shape("2") int[] which, @Out @Shape("1") float[] out) {
    float[] s = new float[1];
    sumSquares(N, x, s);
    pick(which, s, out);
  }

  /** A call with a grid that reads the total: a kernel of its own. */
  @Operator
  public static void normalised(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    float[] s = new float[1];
    sumSquares(N, x, s);
    scaled(N, x, s, out);
  }
}
