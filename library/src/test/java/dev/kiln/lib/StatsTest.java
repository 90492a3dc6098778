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
}
