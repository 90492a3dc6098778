package dev.kiln.lib;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** {@link Stats}: the kernels' one-pass statistics against exact double-precision ones. */
class StatsTest {
  @Test
  void statisticsOfAWholeTensorFarFromZero() {
    int n = 3_000_000;
    float[] x = Data.floats(1, n, 9999f, 10001f);
    MeanVar[] s = {MeanVar.empty()};
    StatsKernels.meanVar(n, x, s);
    double sum = 0;
    for (float v : x) {
      sum += v;
    }
    double mean = sum / n;
    double squares = 0;
    for (float v : x) {
      squares += (v - mean) * (v - mean);
    }
    assertEquals(n, s[0].n(), "exact up to 2^24");
    assertEquals(mean, s[0].mean(), 1e-2);
    assertEquals(squares / n, s[0].variance(), squares / n * 1e-3);
  }

  @Test
  void columnStatisticsAgreeWithThePlainJava() {
    int b = 2048;
    int n = 33;
    float[] x = Data.floats(2, b * n, -5f, -1f);
    MeanVar[] plain = new MeanVar[n];
    java.util.Arrays.fill(plain, MeanVar.empty());
    Stats.columnMeanVar(b, n, x, plain);
    MeanVar[] kernel = new MeanVar[n];
    java.util.Arrays.fill(kernel, MeanVar.empty());
    StatsKernels.columnMeanVar(b, n, x, kernel);
    for (int k = 0; k < n; k++) {
      assertEquals(plain[k].n(), kernel[k].n(), "column " + k);
      assertEquals(plain[k].mean(), kernel[k].mean(), 1e-5f, "column " + k);
      assertEquals(plain[k].variance(), kernel[k].variance(), plain[k].variance() * 1e-4f, "column " + k);
    }
  }

  /** The identity to start from, then each summary's deviation: records in, records out. */
  @Test
  void emptiesThenDeviations() {
    MeanVar[] s = new MeanVar[5];
    StatsKernels.empties(5, s);
    for (MeanVar m : s) {
      assertEquals(MeanVar.empty(), m);
    }
    s[1] = new MeanVar(4f, 2f, 16f);
    float[] sd = new float[5];
    StatsKernels.deviations(5, s, sd);
    float[] plain = new float[5];
    Stats.deviations(5, s, plain);
    org.junit.jupiter.api.Assertions.assertArrayEquals(plain, sd);
    assertEquals(2f, sd[1]);
    assertEquals(0f, sd[0], "no values: 0");
  }

  /** The derived gradient through {@link MeanVar#gradient}: batch-norm statistics' backward pass. */
  @Test
  void columnStatisticsHaveADerivedGradient() {
    int b = 64;
    int n = 9;
    float[] x = Data.floats(3, b * n, -2f, 3f);
    float[][] s = columns(b, n, x);
    float[] dy = Data.floats(4, 3 * n, -1f, 1f);
    float[] dx = new float[b * n];
    StatsKernels.columnMeanVarGrad(b, n, x, s[0], s[1], s[2], java.util.Arrays.copyOfRange(dy, 0, n),
        java.util.Arrays.copyOfRange(dy, n, 2 * n), java.util.Arrays.copyOfRange(dy, 2 * n, 3 * n), dx);
    FiniteDifferences.checkDirectional(dy, dx, x, v -> {
      float[][] t = columns(b, n, v);
      float[] out = new float[3 * n];
      for (int c = 0; c < 3; c++) {
        System.arraycopy(t[c], 0, out, c * n, n);
      }
      return out;
    });
  }

  /** The plain Java's column statistics, one array a component (count, mean, spread). */
  private static float[][] columns(int b, int n, float[] x) {
    MeanVar[] s = new MeanVar[n];
    java.util.Arrays.fill(s, MeanVar.empty());
    Stats.columnMeanVar(b, n, x, s);
    float[][] c = new float[3][n];
    for (int k = 0; k < n; k++) {
      c[0][k] = s[k].n();
      c[1][k] = s[k].mean();
      c[2][k] = s[k].m2();
    }
    return c;
  }
}
