package dev.kiln.tests.fusion;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Shape;

/** Composites that move data between layouts: broadcasts, a transpose, reshapes. */
public final class Layouts {
  private Layouts() {}

  /** Broadcasts: a bias over columns, then a per-row scale. */
  @Operator
  public static void biasScale(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("N") float[] bias,
      @Shape("B") float[] scale, @Out @Shape("B, N") float[] out) {
    float[] t = new float[B * N];
    Prims.addCols(B, N, x, bias, t);
    Prims.mulRow(B, N, t, scale, out);
  }

  /** A computed vector broadcast over rows: out = x + sigmoid(gate)[n]. */
  @Operator
  public static void gatedBias(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("N") float[] gate,
      @Out @Shape("B, N") float[] out) {
    float[] g = new float[N];
    Prims.sigmoidMap(N, gate, g);
    Prims.addCols(B, N, x, g, out);
  }

  /** A transpose feeding elementwise operators: out = tanh(x^T + bias). */
  @Operator
  public static void transposeBias(@Dim int R, @Dim int C, @Shape("R, C") float[] x, @Shape("R") float[] bias,
      @Out @Shape("C, R") float[] out) {
    float[] t = new float[C * R];
    Prims.transpose(R, C, x, t);
    float[] u = new float[C * R];
    Prims.addCols(C, R, t, bias, u);
    Prims.tanhMap(C * R, u, out);
  }

  /** A [B, H] tensor read flat by a 1-D operator, whose flat result a 2-D operator reads as [B, H]. */
  @Operator
  public static void flatRoundTrip(@Dim int B, @Dim int H, @Shape("B, H") float[] x, @Shape("H") float[] bias,
      @Out @Shape("B, H") float[] out) {
    float[] t = new float[B * H];
    Prims.addCols(B, H, x, bias, t);
    float[] u = new float[B * H];
    Prims.tanhMap(B * H, t, u);
    Prims.mulCols(B, H, u, bias, out);
  }

  /** A flat [B*H] input mapped by a 1-D operator, then reduced by rows as [B, H]. */
  @Operator
  public static void flatToRows(@Dim int B, @Dim int H, @Shape("B*H") float[] x, @Out @Shape("B") float[] out) {
    float[] s = new float[B * H];
    Prims.sigmoidMap(B * H, x, s);
    Prims.rowSum(B, H, s, out);
  }

  /** A [B, 2H] result read as [2B, H]: the rows change width, so reads map back with / and %. */
  @Operator
  public static void reshapeRows(@Dim int B, @Dim int H, @Shape("B, 2*H") float[] x, @Out @Shape("2*B") float[] out) {
    float[] t = new float[2 * B * H];
    Prims.tanhMap(2 * B * H, x, t);
    Prims.rowSum(2 * B, H, t, out);
  }
}
