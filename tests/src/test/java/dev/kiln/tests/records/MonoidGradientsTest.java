package dev.kiln.tests.records;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kiln.tests.Data;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.Test;

/**
 * Derived gradients of operators that reduce into user monoids, through each record's
 * {@code @ElementGradient} method: every element of {@code x} checked against central differences
 * of the plain Java operator's weighted components {@code sum_c sum_i ds_c[i] * s_c[i]}.
 */
class MonoidGradientsTest {
  /** {@code sum ds_c[i] * r_c[i]} over a MeanVar array's components. */
  private static double weighted(MeanVar[] s, float[] dn, float[] dmean, float[] dm2) {
    double l = 0;
    for (int i = 0; i < s.length; i++) {
      l += (double) dn[i] * s[i].n() + (double) dmean[i] * s[i].mean() + (double) dm2[i] * s[i].m2();
    }
    return l;
  }

  /** Central differences of {@code loss} at every element of {@code x}, against {@code dx}. */
  static void assertGradient(float[] x, float[] dx, float h, double tolerance, ToDoubleFunction<float[]> loss) {
    for (int i = 0; i < x.length; i++) {
      float keep = x[i];
      x[i] = keep + h;
      double up = loss.applyAsDouble(x);
      x[i] = keep - h;
      double down = loss.applyAsDouble(x);
      x[i] = keep;
      double fd = (up - down) / (2.0 * h);
      assertEquals(fd, dx[i], tolerance * Math.max(1, Math.abs(fd)), "element " + i);
    }
  }

  @Test
  void welfordOverAllWorkers() {
    int n = 60;
    float[] x = Data.floats(51, n, -1f, 3f);
    float[] dn = {0.7f};
    float[] dmean = {-1.3f};
    float[] dm2 = {0.4f};
    MeanVar[] s = MonoidsTest.empties(1);
    Monoids.meanVar(n, x, s);
    float[] dx = new float[n];
    MonoidsKernels.meanVarGrad(n, x, new float[] {s[0].n()}, new float[] {s[0].mean()}, new float[] {s[0].m2()},
        dn, dmean, dm2, dx);
    // the mean is linear and the spread quadratic in x: central differences are exact but for rounding
    assertGradient(x, dx, 0.25f, 1e-3, v -> {
      MeanVar[] t = MonoidsTest.empties(1);
      Monoids.meanVar(n, v, t);
      return weighted(t, dn, dmean, dm2);
    });
  }

  @Test
  void rowsColumnsAndAGuard() {
    int b = 5;
    int n = 7;
    float[] x = Data.floats(52, b * n, -2f, 2f);
    for (int i = 0; i < x.length; i++) {
      x[i] = x[i] < 0 ? x[i] - 0.5f : x[i] + 0.5f; // away from positiveMeanVar's guard at 0
    }
    float[] dn = Data.floats(53, Math.max(b, n), -1f, 1f);
    float[] dmean = Data.floats(54, Math.max(b, n), -1f, 1f);
    float[] dm2 = Data.floats(55, Math.max(b, n), -1f, 1f);

    float[][] rows = components(b, v -> Monoids.rowMeanVar(b, n, x, v));
    float[] dx = new float[b * n];
    MonoidsKernels.rowMeanVarGrad(b, n, x, rows[0], rows[1], rows[2], head(dn, b), head(dmean, b), head(dm2, b), dx);
    assertGradient(x, dx, 0.25f, 1e-3, v -> {
      MeanVar[] t = MonoidsTest.empties(b);
      Monoids.rowMeanVar(b, n, v, t);
      return weighted(t, dn, dmean, dm2);
    });

    float[][] cols = components(n, v -> Monoids.columnMeanVar(b, n, x, v));
    float[] dxc = new float[b * n];
    MonoidsKernels.columnMeanVarGrad(b, n, x, cols[0], cols[1], cols[2], head(dn, n), head(dmean, n), head(dm2, n), dxc);
    assertGradient(x, dxc, 0.25f, 1e-3, v -> {
      MeanVar[] t = MonoidsTest.empties(n);
      Monoids.columnMeanVar(b, n, v, t);
      return weighted(t, dn, dmean, dm2);
    });

    int all = b * n;
    float[][] pos = components(1, v -> Monoids.positiveMeanVar(all, x, v));
    float[] dxp = new float[all];
    MonoidsKernels.positiveMeanVarGrad(all, x, pos[0], pos[1], pos[2], head(dn, 1), head(dmean, 1), head(dm2, 1), dxp);
    assertGradient(x, dxp, 0.25f, 1e-3, v -> {
      MeanVar[] t = MonoidsTest.empties(1);
      Monoids.positiveMeanVar(all, v, t);
      return weighted(t, dn, dmean, dm2);
    });
    for (int i = 0; i < all; i++) {
      if (x[i] < 0) {
        assertEquals(0f, dxp[i], "a value the guard leaves out gets nothing");
      }
    }
  }

  @Test
  void argMaxSendsTheGradientToTheFirstMaximum() {
    int n = 9;
    float[] x = {1f, 4f, -2f, 4f, 0f, 3f, 4f, 1f, 2f};
    ArgMax[] m = {ArgMax.none()};
    Monoids.argMax(n, x, m);
    float[] dx = new float[n];
    MonoidsKernels.argMaxGrad(n, x, new float[] {m[0].value()}, new int[] {m[0].index()}, new float[] {2.5f}, dx);
    float[] want = new float[n];
    want[1] = 2.5f; // the record's gradient: the first of the three equal maxima
    org.junit.jupiter.api.Assertions.assertArrayEquals(want, dx);
  }

  @Test
  void topThreeSendsEachGradientToItsElement() {
    int n = 10;
    float[] x = {1f, 4f, -2f, 4f, 0f, 3f, 4f, 1f, 2f, 5f};
    Top3[] t = {Top3.none()};
    Monoids.top3(n, x, t);
    org.junit.jupiter.api.Assertions.assertEquals(new Top3(5f, 9, 4f, 1, 4f, 3), t[0]);
    float[] dx = new float[n];
    MonoidsKernels.top3Grad(n, x, new float[] {t[0].v0()}, new int[] {t[0].i0()}, new float[] {t[0].v1()},
        new int[] {t[0].i1()}, new float[] {t[0].v2()}, new int[] {t[0].i2()},
        new float[] {2.5f}, new float[] {-1f}, new float[] {0.75f}, dx);
    float[] want = new float[n];
    want[9] = 2.5f;
    want[1] = -1f;
    want[3] = 0.75f; // the third 4 (index 6) is not among the three
    org.junit.jupiter.api.Assertions.assertArrayEquals(want, dx);
  }

  @Test
  void logSumExpBucketsBesideWelford() {
    int n = 40;
    int k = 3;
    float[] x = Data.floats(56, n, -1f, 1f);
    int[] bucket = new int[n];
    for (int i = 0; i < n; i++) {
      bucket[i] = (i * 7) % k;
    }
    float[] dmax = {0.3f, -0.8f, 1.1f};
    float[] dsum = {0.5f, 0.2f, -0.6f};
    float[] dn = {0.1f};
    float[] dmean = {0.9f};
    float[] dm2 = {-0.35f};
    ToDoubleFunction<float[]> loss = v -> {
      LogSumExp[] l = new LogSumExp[k];
      java.util.Arrays.fill(l, LogSumExp.empty());
      MeanVar[] all = MonoidsTest.empties(1);
      Monoids.bucketLogSumExp(n, k, v, bucket, l, all);
      double sum = weighted(all, dn, dmean, dm2);
      for (int j = 0; j < k; j++) {
        sum += (double) dmax[j] * l[j].max() + (double) dsum[j] * l[j].sum();
      }
      return sum;
    };
    MeanVar[] all = MonoidsTest.empties(1);
    float[][] l = bucketLogSumExp(n, k, x, bucket, all);
    float[] lmax = l[0];
    float[] lsum = l[1];
    float[] dx = new float[n];
    MonoidsKernels.bucketLogSumExpGrad(n, k, x, bucket, lmax, lsum, new float[] {all[0].n()},
        new float[] {all[0].mean()}, new float[] {all[0].m2()}, dmax, dsum, dn, dmean, dm2, dx);
    assertGradient(x, dx, 1e-3f, 2e-2, loss);
  }

  /** Every component of the element from an input: the count's, the mean's and the spread's gradients. */
  @Test
  void eachComponentOfTheElement() {
    int n = 30;
    float[] w = Data.floats(57, n, 1f, 3f);
    float[] x = Data.floats(58, n, -1f, 2f);
    float[] v = Data.floats(59, n, 0f, 1f);
    float[] dn = {0.6f};
    float[] dmean = {-1.1f};
    float[] dm2 = {0.3f};
    MeanVar[] s = MonoidsTest.empties(1);
    Monoids.groupsMeanVar(n, w, x, v, s);
    float[] dw = new float[n];
    float[] dx = new float[n];
    float[] dv = new float[n];
    MonoidsKernels.groupsMeanVarGrad(n, w, x, v, new float[] {s[0].n()}, new float[] {s[0].mean()},
        new float[] {s[0].m2()}, dn, dmean, dm2, dw, dx, dv);
    ToDoubleFunction<float[]> loss = ignored -> {
      MeanVar[] t = MonoidsTest.empties(1);
      Monoids.groupsMeanVar(n, w, x, v, t);
      return weighted(t, dn, dmean, dm2);
    };
    assertGradient(w, dw, 1e-2f, 1e-2, loss);
    assertGradient(x, dx, 1e-2f, 1e-2, loss);
    assertGradient(v, dv, 1e-2f, 1e-2, loss);
  }

  /**
   * The sum component's gradient, under a guard that leaves out a value whose share {@code exp(x -
   * max)} would overflow: that value gets 0, not 0 * infinity.
   */
  @Test
  void weightedLogSumExpUnderAGuard() {
    int n = 25;
    float[] x = Data.floats(60, n, -2f, 2f);
    float[] w = Data.floats(61, n, 0.5f, 2f);
    x[7] = 100f;
    float[] dmax = {0.4f};
    float[] dsum = {-0.7f};
    LogSumExp[] l = {LogSumExp.empty()};
    Monoids.weightedLogSumExp(n, x, w, l);
    float[] dx = new float[n];
    float[] dw = new float[n];
    MonoidsKernels.weightedLogSumExpGrad(n, x, w, new float[] {l[0].max()}, new float[] {l[0].sum()}, dmax, dsum,
        dx, dw);
    assertEquals(0f, dx[7], "a value the guard leaves out");
    assertEquals(0f, dw[7], "a value the guard leaves out");
    ToDoubleFunction<float[]> loss = ignored -> {
      LogSumExp[] t = {LogSumExp.empty()};
      Monoids.weightedLogSumExp(n, x, w, t);
      return (double) dmax[0] * t[0].max() + (double) dsum[0] * t[0].sum();
    };
    x[7] = 40f; // inside the guard, the differences below stay where the function is smooth
    assertGradient(w, dw(n, x, w, dmax, dsum), 1e-3f, 1e-2, loss);
    assertGradient(x, dx(n, x, w, dmax, dsum), 1e-3f, 1e-2, loss);
  }

  private static float[] dx(int n, float[] x, float[] w, float[] dmax, float[] dsum) {
    return logSumExpGrad(n, x, w, dmax, dsum)[0];
  }

  private static float[] dw(int n, float[] x, float[] w, float[] dmax, float[] dsum) {
    return logSumExpGrad(n, x, w, dmax, dsum)[1];
  }

  private static float[][] logSumExpGrad(int n, float[] x, float[] w, float[] dmax, float[] dsum) {
    LogSumExp[] l = {LogSumExp.empty()};
    Monoids.weightedLogSumExp(n, x, w, l);
    float[][] d = new float[2][n];
    MonoidsKernels.weightedLogSumExpGrad(n, x, w, new float[] {l[0].max()}, new float[] {l[0].sum()}, dmax, dsum,
        d[0], d[1]);
    return d;
  }

  /** A record without @ElementGradient whose elements depend on no input: the operator's gradient is derived all the same. */
  @Test
  void aCountThatDependsOnNoInputNeedsNoGradient() {
    int n = 11;
    float[] x = Data.floats(62, n, -1f, 1f);
    float[] dy = Data.floats(63, n, -1f, 1f);
    float[] y = new float[n];
    Tally[] t = {Tally.none()};
    Monoids.doubleAndCount(n, x, y, t);
    float[] dx = new float[n];
    MonoidsKernels.doubleAndCountGrad(n, x, y, new long[] {t[0].n()}, new double[] {t[0].sum()}, dy,
        new double[] {0.5}, dx);
    for (int i = 0; i < n; i++) {
      assertEquals(2f * dy[i], dx[i], "element " + i);
    }
  }

  /**
   * The plain Java's {@code bucketLogSumExp} from empty records: the buckets' maxima and sums, one
   * array each; {@code all} gets the overall statistics.
   */
  static float[][] bucketLogSumExp(int n, int k, float[] x, int[] bucket, MeanVar[] all) {
    LogSumExp[] l = new LogSumExp[k];
    java.util.Arrays.fill(l, LogSumExp.empty());
    Monoids.bucketLogSumExp(n, k, x, bucket, l, all);
    float[][] c = new float[2][k];
    for (int j = 0; j < k; j++) {
      c[0][j] = l[j].max();
      c[1][j] = l[j].sum();
    }
    return c;
  }

  /** Runs {@code op} on {@code n} empty records and returns their components, one array each. */
  private static float[][] components(int n, java.util.function.Consumer<MeanVar[]> op) {
    MeanVar[] s = MonoidsTest.empties(n);
    op.accept(s);
    float[][] c = new float[3][n];
    for (int i = 0; i < n; i++) {
      c[0][i] = s[i].n();
      c[1][i] = s[i].mean();
      c[2][i] = s[i].m2();
    }
    return c;
  }

  private static float[] head(float[] a, int n) {
    return java.util.Arrays.copyOf(a, n);
  }
}
