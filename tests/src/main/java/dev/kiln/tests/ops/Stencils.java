package dev.kiln.tests.ops;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Shape;

/** Neighbourhood operators: reads at offset indices, with boundary conditions. */
public final class Stencils {
  private Stencils() {}

  /**
   * A 3-point box blur with zero padding: an invariant local before the grid, boundary reads
   * guarded by {@code ?:}.
   */
  @Operator
  public static void blur3(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    float w = 1f / 3f;
    for (@Parallel int i = 0; i < N; i++) {
      float left = i > 0 ? x[i - 1] : 0f;
      float right = i < N - 1 ? x[i + 1] : 0f;
      out[i] = w * (left + x[i] + right);
    }
  }

  /**
   * A "valid" 3-tap convolution: a haloed input ({@code N + 2}) and a literal extent ({@code 3}).
   */
  @Operator
  public static void conv3(
      @Dim int N, @Shape("N + 2") float[] x, @Shape("3") float[] k, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = k[0] * x[i] + k[1] * x[i + 1] + k[2] * x[i + 2];
    }
  }

  /** A 5-point Laplacian on a 2-D grid; the border is copied through ({@code if/else}). */
  @Operator
  public static void laplace2d(
      @Dim int H, @Dim int W, @Shape("H, W") float[] u, @Out @Shape("H, W") float[] out) {
    for (@Parallel int y = 0; y < H; y++) {
      for (@Parallel int x = 0; x < W; x++) {
        int p = y * W + x;
        if (y == 0 || x == 0 || y == H - 1 || x == W - 1) {
          out[p] = u[p];
        } else {
          out[p] = u[p - W] + u[p + W] + u[p - 1] + u[p + 1] - 4f * u[p];
        }
      }
    }
  }

  /**
   * One explicit step of the 1-D heat equation in double, with reflecting (Neumann) boundaries:
   * an {@code if} and an {@code if/else} assigning locals.
   */
  @Operator
  public static void heatStep(
      @Dim int N, @Shape("N") double[] u, double alpha, @Out @Shape("N") double[] next) {
    for (@Parallel int i = 0; i < N; i++) {
      double left = u[i];
      if (i > 0) {
        left = u[i - 1];
      }
      double right = 0.0;
      if (i == N - 1) {
        right = u[i];
      } else {
        right = u[i + 1];
      }
      next[i] = u[i] + alpha * (left - 2.0 * u[i] + right);
    }
  }
}
