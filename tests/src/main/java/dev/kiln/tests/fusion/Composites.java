package dev.kiln.tests.fusion;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Shape;

/** Composite operators: calls of the operators in {@link Prims}, fused by Kiln. */
public final class Composites {
  private Composites() {}

  /** The LSTM cell from small operators: split into four gates, sigmoid, tanh, mul, add. */
  @Operator
  public static void lstmCell(@Dim int B, @Dim int H, @Shape("B, 4*H") float[] gates, @Shape("B, H") float[] c,
      float forgetBias, @Out @Shape("B, H") float[] cNext, @Out @Shape("B, H") float[] hNext) {
    int N = B * H;
    float[] i = new float[N];
    float[] j = new float[N];
    float[] f = new float[N];
    float[] o = new float[N];
    Prims.split4(B, H, gates, i, j, f, o);
    float[] fb = new float[N];
    Prims.addScalar(N, f, forgetBias, fb);
    float[] sf = new float[N];
    Prims.sigmoidMap(N, fb, sf);
    float[] si = new float[N];
    Prims.sigmoidMap(N, i, si);
    float[] tj = new float[N];
    Prims.tanhMap(N, j, tj);
    float[] keep = new float[N];
    Prims.mul(N, c, sf, keep);
    float[] write = new float[N];
    Prims.mul(N, si, tj, write);
    Prims.add(N, keep, write, cNext);
    float[] tc = new float[N];
    Prims.tanhMap(N, cNext, tc);
    float[] so = new float[N];
    Prims.sigmoidMap(N, o, so);
    Prims.mul(N, tc, so, hNext);
  }

  /** OVL's example: split, add, add, mul, concat. */
  @Operator
  public static void ovl(@Dim int N, @Shape("2*N") float[] x, @Shape("N") float[] y, @Out @Shape("2*N") float[] out) {
    float[] lo = new float[N];
    float[] hi = new float[N];
    Prims.split2(N, x, lo, hi);
    float[] a = new float[N];
    Prims.add(N, lo, y, a);
    float[] b = new float[N];
    Prims.add(N, hi, y, b);
    float[] p = new float[N];
    Prims.mul(N, a, b, p);
    Prims.concat2(N, a, p, out);
  }

  /** Softmax over rows from primitives: row max, subtract, exp, row sum, divide. */
  @Operator
  public static void softmax(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] y) {
    float[] m = new float[B];
    Prims.rowMax(B, N, x, m);
    float[] z = new float[B * N];
    Prims.subRow(B, N, x, m, z);
    float[] e = new float[B * N];
    Prims.expMap(B * N, z, e);
    float[] s = new float[B];
    Prims.rowSum(B, N, e, s);
    Prims.divRow(B, N, e, s, y);
  }

  /**
   * Layer norm from primitives: row mean, subtract, square, row mean (the variance), add eps and
   * rsqrt, multiply, scale by gamma[N], shift by beta[N].
   */
  @Operator
  public static void layerNorm(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("N") float[] gamma,
      @Shape("N") float[] beta, float eps, @Out @Shape("B, N") float[] y) {
    float[] mean = new float[B];
    Prims.rowMean(B, N, x, mean);
    float[] d = new float[B * N];
    Prims.subRow(B, N, x, mean, d);
    float[] sq = new float[B * N];
    Prims.square(B * N, d, sq);
    float[] var = new float[B];
    Prims.rowMean(B, N, sq, var);
    float[] ve = new float[B];
    Prims.addScalar(B, var, eps, ve);
    float[] inv = new float[B];
    Prims.rsqrtMap(B, ve, inv);
    float[] nrm = new float[B * N];
    Prims.mulRow(B, N, d, inv, nrm);
    float[] g = new float[B * N];
    Prims.mulCols(B, N, nrm, gamma, g);
    Prims.addCols(B, N, g, beta, y);
  }

  /**
   * {@code @Dim} expressions as the {@code int} arguments of a call: the second half of each row of
   * {@code [B, 2*H]}, times {@code 2*H}, plus its last quarter of {@code [B, 4*H]} read at {@code 3*H}.
   */
  @Operator
  public static void dimArguments(@Dim int B, @Dim int H, @Shape("B, 2*H") float[] x, @Shape("B, 4*H") float[] z,
      @Out @Shape("B, H") float[] out) {
    float[] half = new float[B * H];
    Prims.columnsFrom(B, 2 * H, H, H, 2 * H, x, half);
    float[] quarter = new float[B * H];
    Prims.columnsFrom(B, 4 * H, H, 3 * H, 1, z, quarter);
    Prims.add(B * H, half, quarter, out);
  }

  /**
   * Operators whose {@code @Parallel} bound is {@code 4 * H} (DerivedBounds), composed: the
   * activations over {@code [B, 4*H]} are the product's epilogue.
   */
  @Operator
  public static void derivedBoundGates(@Dim int B, @Dim int I, @Dim int H, @Shape("B, I") float[] x,
      @Shape("I, 4*H") float[] w, @Shape("4*H") float[] bias, @Out @Shape("B, 4*H") float[] a) {
    float[] g = new float[B * 4 * H];
    dev.kiln.tests.ops.DerivedBounds.gateProduct(B, I, H, x, w, g);
    dev.kiln.tests.ops.DerivedBounds.gateActivations(B, H, g, bias, a);
  }
}
