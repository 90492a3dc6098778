package dev.kiln.tests.fusion;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Shape;

/** Composites whose DAG shape is the point: diamonds, nesting, scalars passed through, outputs read back. */
public final class Graphs {
  private Graphs() {}

  /** x -> a = tanh(x); b = sigmoid(a); c = exp(a); out = b + c. */
  @Operator
  public static void diamond(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    float[] a = new float[N];
    Prims.tanhMap(N, x, a);
    float[] b = new float[N];
    Prims.sigmoidMap(N, a, b);
    float[] c = new float[N];
    Prims.expMap(N, a, c);
    Prims.add(N, b, c, out);
  }

  /** A diamond whose shared producer is a dot-product loop: a = x w; out = tanh(a) + sigmoid(a). */
  @Operator
  public static void matmulDiamond(@Dim int B, @Dim int K, @Dim int N, @Shape("B, K") float[] x,
      @Shape("K, N") float[] w, @Out @Shape("B, N") float[] out) {
    float[] a = new float[B * N];
    Prims.matmul(B, K, N, x, w, a);
    float[] t = new float[B * N];
    Prims.tanhMap(B * N, a, t);
    float[] s = new float[B * N];
    Prims.sigmoidMap(B * N, a, s);
    Prims.add(B * N, t, s, out);
  }

  /** A diamond whose shared producer is a row reduction: m = rowMean(x); out = (x - m) + x * m. */
  @Operator
  public static void rowDiamond(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] out) {
    float[] m = new float[B];
    Prims.rowMean(B, N, x, m);
    float[] d = new float[B * N];
    Prims.subRow(B, N, x, m, d);
    float[] p = new float[B * N];
    Prims.mulRow(B, N, x, m, p);
    Prims.add(B * N, d, p, out);
  }

  /**
   * A diamond whose expensive shared producer (a dot-product loop, y = A x) is read by one consumer
   * at its own element and by a stencil at the neighbours': y must be stored once and read back.
   */
  @Operator
  public static void stencilDiamond(@Dim int M, @Dim int K, @Shape("M, K") float[] a, @Shape("K") float[] x,
      @Out @Shape("M") float[] out) {
    float[] y = new float[M];
    Prims.matvec(M, K, a, x, y);
    float[] t = new float[M];
    Prims.tanhMap(M, y, t);
    float[] b = new float[M];
    Prims.blur3(M, y, b);
    Prims.add(M, t, b, out);
  }

  /** Nested: a composite of two calls of the composite {@link #diamond}. */
  @Operator
  public static void twoDiamonds(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    float[] t = new float[N];
    diamond(N, x, t);
    diamond(N, t, out);
  }

  /** Nested across classes: tanh, then the composite {@link Composites#softmax}. */
  @Operator
  public static void tanhSoftmax(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] y) {
    float[] t = new float[B * N];
    Prims.tanhMap(B * N, x, t);
    Composites.softmax(B, N, t, y);
  }

  /** Scalars passed through: out = x * alpha + beta. */
  @Operator
  public static void scaleShift(@Dim int N, @Shape("N") float[] x, float alpha, float beta, @Out @Shape("N") float[] out) {
    float[] t = new float[N];
    Prims.mulScalar(N, x, alpha, t);
    Prims.addScalar(N, t, beta, out);
  }

  /** A scalar parameter and a literal passed through a nested composite: tanh(x * alpha - 0.5). */
  @Operator
  public static void scaleShiftTanh(@Dim int N, @Shape("N") float[] x, float alpha, @Out @Shape("N") float[] out) {
    float[] t = new float[N];
    scaleShift(N, x, alpha, -0.5f, t);
    Prims.tanhMap(N, t, out);
  }

  /** An int scalar parameter passed where a float is expected (Java widens it, rounding above 2^24). */
  @Operator
  public static void scaleByInt(@Dim int N, @Shape("N") float[] x, int k, @Out @Shape("N") float[] out) {
    float[] t = new float[N];
    Prims.mulScalar(N, x, k, t);
    Prims.addScalar(N, t, 1e-3f, out);
  }

  /** An output read back by a later call, at its own and at neighbouring elements: y = tanh(x); z = blur3(y). */
  @Operator
  public static void readBack(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y, @Out @Shape("N") float[] z) {
    Prims.tanhMap(N, x, y);
    Prims.blur3(N, y, z);
  }

  /** An output read back by a row reduction: e = exp(x) is an output, s = rowSum(e). */
  @Operator
  public static void expRowSum(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] e,
      @Out @Shape("B") float[] s) {
    Prims.expMap(B * N, x, e);
    Prims.rowSum(B, N, e, s);
  }

  /**
   * Two independent chains whose calls alternate between two grids ([N], [M], [N], [M]): the third
   * call reads nothing any kernel wrote and joins the first kernel, past the kernel of the other
   * grid, which neither reads nor writes what it touches; the fourth reads {@code v} and joins the
   * second.
   */
  @Operator
  public static void interleaved(@Dim int N, @Dim int M, @Shape("N") float[] x, @Shape("M") float[] y,
      @Out @Shape("N") float[] u, @Out @Shape("M") float[] v, @Out @Shape("N") float[] w, @Out @Shape("M") float[] z) {
    Prims.tanhMap(N, x, u);
    Prims.sigmoidMap(M, y, v);
    Prims.expMap(N, x, w);
    Prims.mulScalar(M, v, 0.5f, z);
  }
}
