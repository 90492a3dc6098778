package dev.kiln.tests.ops;

import static dev.kiln.KMath.*;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Reduce;
import dev.kiln.Shape;

/**
 * {@code @Reduce} outputs: several workers update the same element. Like the plain-Java loops, the
 * kernels accumulate onto whatever the output holds when called.
 */
public final class Reductions {
  private Reductions() {}

  /** {@code s[0] += sum(x)}. */
  @Operator
  public static void sum(@Dim int N, @Shape("N") float[] x, @Out @Reduce @Shape("1") float[] s) {
    for (@Parallel int i = 0; i < N; i++) {
      s[0] += x[i];
    }
  }

  /** {@code s[0] = s[0] + x[i]} (and {@code t[0] = 2 * x[i] + t[0]}): the same reduction as {@code +=}, written out. */
  @Operator
  public static void sumAssigned(@Dim int N, @Shape("N") float[] x, @Out @Reduce @Shape("1") float[] s,
      @Out @Reduce @Shape("1") float[] t) {
    for (@Parallel int i = 0; i < N; i++) {
      s[0] = s[0] + x[i];
      t[0] = 2f * x[i] + t[0];
    }
  }

  /** {@code s[0] += a . b}: the reduced expression is a product. */
  @Operator
  public static void dot(
      @Dim int N,
      @Shape("N") float[] a,
      @Shape("N") float[] b,
      @Out @Reduce @Shape("1") float[] s) {
    for (@Parallel int i = 0; i < N; i++) {
      s[0] += a[i] * b[i];
    }
  }

  /** {@code m[0] = max(m[0], max(x))} with {@code Math.max}. */
  @Operator
  public static void maxAll(@Dim int N, @Shape("N") float[] x, @Out @Reduce @Shape("1") float[] m) {
    for (@Parallel int i = 0; i < N; i++) {
      m[0] = Math.max(m[0], x[i]);
    }
  }

  /** {@code m[0] = min(m[0], min(x))} with KMath's {@code min}. */
  @Operator
  public static void minAll(@Dim int N, @Shape("N") float[] x, @Out @Reduce @Shape("1") float[] m) {
    for (@Parallel int i = 0; i < N; i++) {
      m[0] = min(m[0], x[i]);
    }
  }

  /** {@code p[0] *= prod(x)} in double. */
  @Operator
  public static void product(
      @Dim int N, @Shape("N") double[] x, @Out @Reduce @Shape("1") double[] p) {
    for (@Parallel int i = 0; i < N; i++) {
      p[0] *= x[i];
    }
  }

  /** An int reduction: {@code c[0] +=} the number of positive elements. */
  @Operator
  public static void countPositive(
      @Dim int N, @Shape("N") float[] x, @Out @Reduce @Shape("1") int[] c) {
    for (@Parallel int i = 0; i < N; i++) {
      c[0] += x[i] > 0f ? 1 : 0;
    }
  }

  /** Row sums over a 2-D grid: both loops parallel, workers of a row share {@code s[b]}. */
  @Operator
  public static void rowSums(
      @Dim int B, @Dim int K, @Shape("B, K") float[] x, @Out @Reduce @Shape("B") float[] s) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int k = 0; k < K; k++) {
        s[b] += x[b * K + k];
      }
    }
  }

  /** Column sums: the shared element is indexed by the inner grid variable. */
  @Operator
  public static void colSums(
      @Dim int B, @Dim int K, @Shape("B, K") float[] x, @Out @Reduce @Shape("K") float[] s) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int k = 0; k < K; k++) {
        s[k] += x[b * K + k];
      }
    }
  }

  /** A grid operator with no parallel loop is one worker: an inclusive prefix sum. */
  @Operator
  public static void prefixSum(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    float acc = 0f;
    for (int i = 0; i < N; i++) {
      acc += x[i];
      out[i] = acc;
    }
  }

  /**
   * {@code dw[k, n] += sum over b of x[b, k] * dy[b, n]}: a weight gradient written one batch row a
   * worker; the accumulated index uses the loop variables, not the grid's.
   */
  @Operator
  public static void outerProductSum(
      @Dim int B,
      @Dim int K,
      @Dim int N,
      @Shape("B, K") float[] x,
      @Shape("B, N") float[] dy,
      @Out @Reduce @Shape("K, N") float[] dw) {
    for (@Parallel int b = 0; b < B; b++) {
      for (int k = 0; k < K; k++) {
        for (int n = 0; n < N; n++) {
          dw[k * N + n] += x[b * K + k] * dy[b * N + n];
        }
      }
    }
  }

  /** Row sums and column sums in one pass: two {@code @Reduce} outputs kept on different grid dimensions. */
  @Operator
  public static void rowAndColumnSums(
      @Dim int B,
      @Dim int K,
      @Shape("B, K") float[] x,
      @Out @Reduce @Shape("B") float[] rows,
      @Out @Reduce @Shape("K") float[] cols) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int k = 0; k < K; k++) {
        rows[b] += x[b * K + k];
        cols[k] += x[b * K + k];
      }
    }
  }

  /** {@code m[j] = max(m[j], x[i, j])} with {@code j} a loop variable: a running maximum per column. */
  @Operator
  public static void columnMaxByRows(
      @Dim int B, @Dim int K, @Shape("B, K") double[] x, @Out @Reduce @Shape("K") double[] m) {
    for (@Parallel int b = 0; b < B; b++) {
      for (int k = 0; k < K; k++) {
        m[k] = Math.max(m[k], x[b * K + k]);
      }
    }
  }

  /** A histogram: the accumulated index is data ({@code bucket}, reduced into range). */
  @Operator
  public static void histogram(
      @Dim int N, @Dim int M, @Shape("N") int[] bucket, @Out @Reduce @Shape("M") int[] count) {
    for (@Parallel int i = 0; i < N; i++) {
      count[(bucket[i] % M + M) % M] += 1;
    }
  }

  /**
   * {@code s[i + j] += x[i, j]}: sums along anti-diagonals. The index uses every grid variable but
   * two workers may meet at one element, so on CUDA it cannot have one block per element.
   */
  @Operator
  public static void antiDiagonalSums(@Dim int N, @Shape("N, N") float[] x, @Out @Reduce @Shape("2 * N") float[] s) {
    for (@Parallel int i = 0; i < N; i++) {
      for (@Parallel int j = 0; j < N; j++) {
        s[i + j] += x[i * N + j];
      }
    }
  }

  /** Per row, the sum and the sum of squares in one pass: two {@code @Reduce} outputs on the same dimensions. */
  @Operator
  public static void rowMoments(
      @Dim int B,
      @Dim int K,
      @Shape("B, K") double[] x,
      @Out @Reduce @Shape("B") double[] sum,
      @Out @Reduce @Shape("B") double[] squares) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int k = 0; k < K; k++) {
        sum[b] += x[b * K + k];
        squares[b] += x[b * K + k] * x[b * K + k];
      }
    }
  }

  /** A running sum along each row, its first element written before the loop that writes the rest. */
  @Operator
  public static void rowScan(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      float s = x[b * N];
      y[b * N] = s;
      for (int k = 1; k < N; k++) {
        s += x[b * N + k];
        y[b * N + k] = s;
      }
    }
  }
}
