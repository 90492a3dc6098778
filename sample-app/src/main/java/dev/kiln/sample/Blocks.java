package dev.kiln.sample;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Shape;
import dev.kiln.lib.Elementwise;
import dev.kiln.lib.Layout;
import dev.kiln.lib.Rows;

/**
 * Composites the fusion benchmark times, written from the standard library's primitives (another
 * jar: Kiln reads their IR from the classpath and fuses them here).
 */
public final class Blocks {
  private Blocks() {}

  /** The LSTM cell from small operators: split into four gates, add, sigmoid, tanh, mul. */
  @Operator
  public static void lstmCell(@Dim int B, @Dim int H, @Shape("B, 4*H") float[] gates, @Shape("B, H") float[] c,
      float forgetBias, @Out @Shape("B, H") float[] cNext, @Out @Shape("B, H") float[] hNext) {
    int N = B * H;
    float[] i = new float[N];
    float[] j = new float[N];
    float[] f = new float[N];
    float[] o = new float[N];
    Layout.split4(B, H, gates, i, j, f, o);
    float[] fb = new float[N];
    Elementwise.addScalar(N, f, forgetBias, fb);
    float[] sf = new float[N];
    Elementwise.sigmoid(N, fb, sf);
    float[] si = new float[N];
    Elementwise.sigmoid(N, i, si);
    float[] tj = new float[N];
    Elementwise.tanh(N, j, tj);
    float[] keep = new float[N];
    Elementwise.mul(N, c, sf, keep);
    float[] write = new float[N];
    Elementwise.mul(N, si, tj, write);
    Elementwise.add(N, keep, write, cNext);
    float[] tc = new float[N];
    Elementwise.tanh(N, cNext, tc);
    float[] so = new float[N];
    Elementwise.sigmoid(N, o, so);
    Elementwise.mul(N, tc, so, hNext);
  }

  /** OVL's example: split, add, add, mul, concat. */
  @Operator
  public static void ovl(@Dim int B, @Dim int N, @Shape("B, 2*N") float[] x, @Shape("B, N") float[] y,
      @Out @Shape("B, 2*N") float[] out) {
    float[] lo = new float[B * N];
    float[] hi = new float[B * N];
    Layout.split2(B, N, x, lo, hi);
    float[] a = new float[B * N];
    Elementwise.add(B * N, lo, y, a);
    float[] b = new float[B * N];
    Elementwise.add(B * N, hi, y, b);
    float[] p = new float[B * N];
    Elementwise.mul(B * N, a, b, p);
    Layout.concat2(B, N, a, p, out);
  }

  /** Softmax over rows: row max, subtract, exp, row sum, divide. */
  @Operator
  public static void softmax(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] y) {
    float[] m = new float[B];
    Rows.rowMax(B, N, x, m);
    float[] z = new float[B * N];
    Rows.subRow(B, N, x, m, z);
    float[] e = new float[B * N];
    Elementwise.exp(B * N, z, e);
    float[] s = new float[B];
    Rows.rowSum(B, N, e, s);
    Rows.divRow(B, N, e, s, y);
  }

  /** Layer norm over rows: mean, centre, variance, normalise, scale, shift. */
  @Operator
  public static void layerNorm(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("N") float[] gamma,
      @Shape("N") float[] beta, @Out @Shape("B, N") float[] y) {
    float[] mean = new float[B];
    Rows.rowMean(B, N, x, mean);
    float[] d = new float[B * N];
    Rows.subRow(B, N, x, mean, d);
    float[] d2 = new float[B * N];
    Elementwise.square(B * N, d, d2);
    float[] variance = new float[B];
    Rows.rowMean(B, N, d2, variance);
    float[] inv = new float[B];
    inverseStd(B, variance, 1e-5f, inv);
    float[] n = new float[B * N];
    Rows.mulRow(B, N, d, inv, n);
    float[] scaled = new float[B * N];
    Rows.mulCols(B, N, n, gamma, scaled);
    Rows.addCols(B, N, scaled, beta, y);
  }

  /** {@code out[i] = 1 / sqrt(v[i] + eps)}. */
  @Operator
  public static void inverseStd(@Dim int N, @Shape("N") float[] v, float eps, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = dev.kiln.KMath.rsqrt(v[i] + eps);
    }
  }
}
