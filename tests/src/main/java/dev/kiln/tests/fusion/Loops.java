package dev.kiln.tests.fusion;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Reduce;
import dev.kiln.Shape;

/** Composites around producers with sequential loops or reductions, stencils, and double precision. */
public final class Loops {
  private Loops() {}

  /** A matmul (a sequential k loop) with a bias and relu epilogue. */
  @Operator
  public static void denseRelu(@Dim int B, @Dim int K, @Dim int N, @Shape("B, K") float[] x, @Shape("K, N") float[] w,
      @Shape("N") float[] bias, @Out @Shape("B, N") float[] out) {
    float[] acc = new float[B * N];
    Prims.matmul(B, K, N, x, w, acc);
    float[] z = new float[B * N];
    Prims.addCols(B, N, acc, bias, z);
    Prims.reluMap(B * N, z, out);
  }

  /** An elementwise prologue into a @Reduce: s[0] += sum(x * x). */
  @Operator
  public static void sumSquares(@Dim int N, @Shape("N") float[] x, @Out @Reduce @Shape("1") float[] s) {
    float[] sq = new float[N];
    Prims.square(N, x, sq);
    Prims.sumAll(N, sq, s);
  }

  /** A stencil over a cheap producer: recomputed at i - 1, i and i + 1. */
  @Operator
  public static void stencilCheap(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    float[] p = new float[N];
    Prims.tanhMap(N, x, p);
    Prims.blur3(N, p, out);
  }

  /** A stencil over a loop-free producer too costly to compute three times: materialised. */
  @Operator
  public static void stencilCostly(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    float[] p = new float[N];
    Prims.costlyMap(N, x, p);
    Prims.blur3(N, p, out);
  }

  /** A stencil over a dot-product loop (y = A x): materialised. */
  @Operator
  public static void stencilMatvec(@Dim int M, @Dim int K, @Shape("M, K") float[] a, @Shape("K") float[] x,
      @Out @Shape("M") float[] out) {
    float[] y = new float[M];
    Prims.matvec(M, K, a, x, y);
    Prims.blur3(M, y, out);
  }

  /** Double precision: rows scaled to unit length, y = x / sqrt(sum x^2 + eps). */
  @Operator
  public static void rowNormalizeD(@Dim int B, @Dim int N, @Shape("B, N") double[] x, double eps,
      @Out @Shape("B, N") double[] y) {
    double[] sq = new double[B * N];
    Prims.squareD(B * N, x, sq);
    double[] s = new double[B];
    Prims.rowSumD(B, N, sq, s);
    double[] se = new double[B];
    Prims.addScalarD(B, s, eps, se);
    double[] r = new double[B];
    Prims.rsqrtMapD(B, se, r);
    Prims.mulRowD(B, N, x, r, y);
  }

  /**
   * A costly elementwise producer read by every worker of a dot product: inlining it would compute
   * each x[k] once per row instead of once.
   */
  @Operator
  public static void costlyMatvec(@Dim int M, @Dim int K, @Shape("M, K") float[] a, @Shape("K") float[] x0,
      @Out @Shape("M") float[] out) {
    float[] x = new float[K];
    Prims.costlyMap(K, x0, x);
    Prims.matvec(M, K, a, x, out);
  }

  /**
   * Rows scaled, then centred: one kernel, a worker a row; on the CPU each worker keeps its scaled
   * row, on a GPU the kernel computes it again where it is read instead of storing it.
   */
  @Operator
  public static void centeredScaled(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] y) {
    float[] t = new float[B * N];
    Prims.rowScaled(B, N, x, t);
    Prims.rowCentered(B, N, t, y);
  }

  /** A running sum, then centred: the temporary's value needs the iteration before, so it is stored everywhere. */
  @Operator
  public static void centeredCumsum(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] y) {
    float[] t = new float[B * N];
    Prims.rowPrefixSum(B, N, x, t);
    Prims.rowCentered(B, N, t, y);
  }
}
