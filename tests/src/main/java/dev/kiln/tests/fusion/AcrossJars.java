package dev.kiln.tests.fusion;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Shape;
import dev.kiln.lib.Elementwise;
import dev.kiln.lib.Layout;
import dev.kiln.lib.Linear;
import dev.kiln.lib.Rows;

/**
 * Composites of operators compiled in another module (the standard library jar, {@code dev.kiln.lib}):
 * Kiln reads their IR from the class path and fuses them as if their source were here.
 */
public final class AcrossJars {
  private AcrossJars() {}

  /** Softmax from the library's row primitives. */
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

  /** A dense layer with a fused epilogue: affine (a dot-product loop), then relu, then a transpose. */
  @Operator
  public static void denseReluT(@Dim int B, @Dim int K, @Dim int N, @Shape("B, K") float[] x, @Shape("K, N") float[] w,
      @Shape("N") float[] bias, @Out @Shape("N, B") float[] yT) {
    float[] a = new float[B * N];
    Linear.affine(B, K, N, x, w, bias, a);
    float[] r = new float[B * N];
    Elementwise.relu(B * N, a, r);
    Layout.transpose(B, N, r, yT);
  }

  /** OVL's example from the library's layout and elementwise operators. */
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
}
