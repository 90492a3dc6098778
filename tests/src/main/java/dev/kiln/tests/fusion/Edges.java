package dev.kiln.tests.fusion;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Shape;

/** Composites at the edges of the merger's rules: overwritten elements, padding, data-dependent reads, reductions read back. */
public final class Edges {
  private Edges() {}

  /** A producer that stores an element and then conditionally overwrites it, inlined into a map. */
  @Operator
  public static void clampTanh(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    float[] c = new float[N];
    Prims.clampHigh(N, x, c);
    Prims.tanhMap(N, c, out);
  }

  /** A producer that overwrites its element inside a sequential loop, followed by a map on the same grid. */
  @Operator
  public static void lastAboveTanh(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    float[] a = new float[N];
    Prims.lastAbove(N, x, a);
    Prims.tanhMap(N, a, out);
  }

  /** Zero padding by a fresh temporary: the convolution reads the pads, which nobody writes. */
  @Operator
  public static void padConv(@Dim int N, @Shape("N") float[] x, @Shape("3") float[] k, @Out @Shape("N") float[] out) {
    float[] t = new float[N];
    Prims.tanhMap(N, x, t);
    float[] p = new float[N + 2];
    Prims.padInto(N, t, p);
    Prims.conv3(N, p, k, out);
  }

  /** Zero padding of an expensive producer: the padded temporary is materialised and its pads must be zero. */
  @Operator
  public static void padConvMatvec(@Dim int M, @Dim int K, @Shape("M, K") float[] a, @Shape("K") float[] x,
      @Shape("3") float[] k, @Out @Shape("M") float[] out) {
    float[] y = new float[M];
    Prims.matvec(M, K, a, x, y);
    float[] p = new float[M + 2];
    Prims.padInto(M, y, p);
    Prims.conv3(M, p, k, out);
  }

  /** A data-dependent read of a computed tensor through a computed int index. */
  @Operator
  public static void gatherTanh(@Dim int M, @Dim int N, @Shape("M") float[] x, @Shape("N") int[] raw,
      @Out @Shape("N") float[] out) {
    float[] t = new float[M];
    Prims.tanhMap(M, x, t);
    int[] idx = new int[N];
    Prims.wrapIndex(N, M, raw, idx);
    Prims.gather(M, N, t, idx, out);
  }

  /** A @Reduce into a temporary, broadcast back: out = x - mean(x). */
  @Operator
  public static void centre(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    float[] s = new float[1];
    Prims.sumAll(N, x, s);
    Prims.subMean(N, x, s, out);
  }

  /**
   * A @Reduce over all workers with a prologue (the square) and a scalar epilogue (the root of the
   * mean): one kernel, the epilogue run once after every worker has added to the total.
   */
  @Operator
  public static void rootMeanSquare(@Dim int N, @Shape("N") float[] x, @Out @Shape("1") float[] out) {
    float[] sq = new float[N];
    Prims.square(N, x, sq);
    float[] s = new float[1];
    Prims.sumAll(N, sq, s);
    Prims.rootMean(N, s, out);
  }

  /**
   * Two scalar epilogues in a row after a @Reduce over all workers (the second reads what the first
   * wrote), the total also an output: one kernel.
   */
  @Operator
  public static void inverseRootMeanSquare(@Dim int N, float eps, @Shape("N") float[] x, @Out @Shape("1") float[] total,
      @Out @Shape("1") float[] out) {
    float[] sq = new float[N];
    Prims.square(N, x, sq);
    Prims.sumAll(N, sq, total);
    float[] r = new float[1];
    Prims.rootMean(N, total, r);
    Prims.inverseScalar(eps, r, out);
  }

  /** A 2-D @Reduce by rows into a temporary with a prologue, then a per-row division. */
  @Operator
  public static void rowNormalize(@Dim int B, @Dim int K, @Shape("B, K") float[] x, @Out @Shape("B, K") float[] out) {
    float[] e = new float[B * K];
    Prims.expMap(B * K, x, e);
    float[] s = new float[B];
    Prims.rowSumsReduce(B, K, e, s);
    Prims.divRow(B, K, e, s, out);
  }

  /** A @Reduce by rows with a prologue (the square) and an epilogue (rsqrt of each row's sum): one kernel. */
  @Operator
  public static void rowInverseNorms(@Dim int B, @Dim int K, @Shape("B, K") float[] x, @Out @Shape("B") float[] out) {
    float[] sq = new float[B * K];
    Prims.square(B * K, x, sq);
    float[] s = new float[B];
    Prims.rowSumsReduce(B, K, sq, s);
    Prims.rsqrtMap(B, s, out);
  }

  /**
   * A bias's gradient (a @Reduce down the columns of dy) and the SGD step on it: one kernel, a
   * worker a column adding the column's terms in order.
   */
  @Operator
  public static void biasSgd(@Dim int B, @Dim int N, float rate, @Shape("B, N") float[] dy, @Shape("N") float[] bias,
      @Out @Shape("N") float[] out) {
    float[] g = new float[N];
    Prims.colSumsReduce(B, N, dy, g);
    Prims.sgdStep(N, rate, g, bias, out);
  }

  /** A @Reduce down columns with a prologue (the square) and an epilogue (rsqrt of each column's sum): one kernel. */
  @Operator
  public static void columnInverseNorms(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("N") float[] out) {
    float[] sq = new float[B * N];
    Prims.square(B * N, x, sq);
    float[] s = new float[N];
    Prims.colSumsReduce(B, N, sq, s);
    Prims.rsqrtMap(N, s, out);
  }

  /** A @Reduce over the middle of three dimensions, then a broadcast add on its result's grid: one kernel. */
  @Operator
  public static void middleSumsBias(@Dim int B, @Dim int H, @Dim int K, @Shape("B, H, K") float[] x,
      @Shape("K") float[] bias, @Out @Shape("B, K") float[] out) {
    float[] s = new float[B * K];
    Prims.middleSumsReduce(B, H, K, x, s);
    Prims.addCols(B, K, s, bias, out);
  }

  /**
   * A @Reduce (max) by the first two of three dimensions, its result also an output, then each
   * group shifted by it: one kernel of a worker per group.
   */
  @Operator
  public static void groupShift(@Dim int B, @Dim int H, @Dim int K, @Shape("B, H, K") float[] x,
      @Out @Shape("B, H") float[] m, @Out @Shape("B, H, K") float[] out) {
    Prims.groupMaxReduce(B, H, K, x, m);
    Prims.subGroup(B, H, K, x, m, out);
  }

  /**
   * An input parameter whose name is the one the nested call's temporary is renamed to
   * ({@code diamond_a}): the two are different arrays.
   */
  @Operator
  public static void shadowedParam(@Dim int N, @Shape("N") float[] x, @Shape("N") float[] diamond_a,
      @Out @Shape("N") float[] out) {
    float[] t = new float[N];
    Graphs.diamond(N, x, t);
    Prims.add(N, t, diamond_a, out);
  }

  /** A single-worker scan feeding a parallel map. */
  @Operator
  public static void prefixTanh(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    float[] p = new float[N];
    Prims.prefixSum(N, x, p);
    Prims.tanhMap(N, p, out);
  }
}
