package dev.kiln.tests.simd.reordered;

import static dev.kiln.KMath.max;
import static dev.kiln.KMath.sqrt;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Shape;

/**
 * Row kernels compiled with {@code -Akiln.simd.sums=reorder} (tests/pom.xml's execution
 * {@code reordered-sums}): their SIMD forms keep a partial sum per lane.
 */
public final class SumOps {
  private SumOps() {}

  /** Sums, a difference fold and a max fold in one loop, then a second pass using them. */
  @Operator
  public static void rowStats(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B") float[] sum,
      @Out @Shape("B") float[] down, @Out @Shape("B") float[] peak, @Out @Shape("B, N") float[] centred) {
    for (@Parallel int b = 0; b < B; b++) {
      float s = 0f;
      float d = 1f;
      float m = Float.NEGATIVE_INFINITY;
      for (int k = 0; k < N; k++) {
        s += x[b * N + k];
        d = d - x[b * N + k] * 0.5f;
        m = max(m, x[b * N + k]);
      }
      float mean = s / N;
      float v = 0f;
      for (int k = 0; k < N; k++) v += (x[b * N + k] - mean) * (x[b * N + k] - mean);
      float r = 1f / sqrt(v / N + 1e-5f);
      for (int k = 0; k < N; k++) centred[b * N + k] = (x[b * N + k] - mean) * r;
      sum[b] = s;
      down[b] = d;
      peak[b] = m;
    }
  }
}
