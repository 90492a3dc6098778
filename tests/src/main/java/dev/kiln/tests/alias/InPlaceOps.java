package dev.kiln.tests.alias;

import static dev.kiln.KMath.sigmoid;
import static dev.kiln.KMath.tanh;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Shape;

/** Operators called with outputs that are also inputs: some safe in place, most not. */
public final class InPlaceOps {
  private InPlaceOps() {}

  /** Safe in place: each worker reads x only at the element it writes. */
  @Operator
  public static void scale(@Dim int N, @Shape("N") float[] x, float s, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = s * x[i];
    }
  }

  /**
   * Safe in place, and with two {@code tanh}/{@code sigmoid} calls its SIMD form runs in stages
   * ({@code SimdFission}): the first call into a scratch row, the last call and the store after it.
   */
  @Operator
  public static void gatedTanh(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = tanh(x[i]) * sigmoid(x[i]);
    }
  }

  /** Not safe in place: y[i] reads x[i - 1], which worker i - 1 may already have overwritten. */
  @Operator
  public static void stencil(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = x[i] + (i > 0 ? x[i - 1] : 0f);
    }
  }

  /** Not safe in place: each output reads the other input. */
  @Operator
  public static void swap(@Dim int N, @Shape("N") float[] a, @Shape("N") float[] b, @Out @Shape("N") float[] x,
      @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      x[i] = b[i];
      y[i] = a[i];
    }
  }

  /** A composite: never in place. */
  @Operator
  public static void step(@Dim int N, @Shape("N") float[] u, @Out @Shape("N") float[] out) {
    float[] t = new float[N];
    scale(N, u, 2f, t);
    stencil(N, t, out);
  }

  /**
   * Two column sums, the second's result stored over {@code w}, which the first reads: safe in
   * place (each worker reads {@code w[n]} before it stores {@code ws[n]}), so its launcher does not
   * deal the two loops to different threads (DealtLoops).
   */
  @Operator
  public static void columnSumsInPlace(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("N") float[] w,
      @Out @Shape("N") float[] sx, @Out @Shape("N") float[] ws) {
    for (@Parallel int n = 0; n < N; n++) {
      float s = 0f;
      for (int b = 0; b < B; b++) {
        s += x[b * N + n] * w[n];
      }
      float t = 0f;
      for (int b = 0; b < B; b++) {
        t += x[b * N + n];
      }
      sx[n] = s;
      ws[n] = t;
    }
  }
}
