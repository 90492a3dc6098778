package dev.kiln.tests.records;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.runtime.cpu.CpuExecutor;
import dev.kiln.tests.Data;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Composites that call user-monoid operators ({@link MonoidComposites}): statistics kept in a
 * temporary array of records, filled with the record's identity, reduced into and then read. The
 * fused launchers against the plain Java composite, against double-precision statistics, and their
 * derived gradients against central differences.
 */
class MonoidCompositesTest {
  /** The listing of the composite {@code name} after fusion, from {@code MonoidComposites.ir.txt}. */
  private static String fusion(String name) throws IOException {
    try (InputStream in = MonoidCompositesTest.class.getResourceAsStream(
        "/META-INF/kiln/dev/kiln/tests/records/MonoidComposites.ir.txt")) {
      String all = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      int at = all.indexOf("\ncomposite " + name + "(");
      assertTrue(at >= 0, "the listing has " + name);
      int end = all.indexOf("\ncomposite ", at + 1);
      return all.substring(at, end < 0 ? all.length() : end);
    }
  }

  /** Each row of {@code 2x + 1} standardised, in double precision. */
  private static float[] standardizedRows(int b, int n, float[] x) {
    float[] y = new float[b * n];
    for (int r = 0; r < b; r++) {
      double sum = 0;
      for (int k = 0; k < n; k++) {
        sum += 2.0 * x[r * n + k] + 1.0;
      }
      double mean = sum / n;
      double m2 = 0;
      for (int k = 0; k < n; k++) {
        double d = 2.0 * x[r * n + k] + 1.0 - mean;
        m2 += d * d;
      }
      double scale = 1 / Math.sqrt(m2 / n + 1e-5);
      for (int k = 0; k < n; k++) {
        y[r * n + k] = (float) ((2.0 * x[r * n + k] + 1.0 - mean) * scale);
      }
    }
    return y;
  }

  @Test
  void rowStatisticsInATemporaryOfRecordsFusedWithTheirConsumer() {
    for (int[] size : new int[][] {{3, 7}, {64, 4096}}) {
      int b = size[0];
      int n = size[1];
      float[] x = Data.floats(91 + b, b * n, 99f, 101f); // far from zero relative to the spread
      float[] plain = new float[b * n];
      MonoidComposites.rowStandardize(b, n, x, plain);
      float[] kernel = new float[b * n];
      MonoidCompositesKernels.rowStandardize(b, n, x, kernel);
      float[] want = standardizedRows(b, n, x);
      for (int i = 0; i < want.length; i++) {
        assertEquals(want[i], plain[i], 2e-3, "the plain Java, element " + i);
      }
      // one worker a row folds the row's records in the source's order: the plain Java's bits
      assertArrayEquals(plain, kernel);
    }
  }

  @Test
  void columnStatisticsAcrossChunks() {
    int b = 2048;
    int n = 24;
    assertTrue(CpuExecutor.chunks(b, 1) > 1, "the rows run as several chunks, each with partial records");
    float[] x = Data.floats(92, b * n, -3f, 5f);
    float[] plain = new float[b * n];
    MonoidComposites.columnStandardize(b, n, x, plain);
    float[] kernel = new float[b * n];
    MonoidCompositesKernels.columnStandardize(b, n, x, kernel);
    for (int i = 0; i < plain.length; i++) {
      assertEquals(plain[i], kernel[i], 1e-4, "element " + i);
    }
  }

  /**
   * Statistics combined down the columns of a 2-D grid, then each column's deviation: a worker a
   * column carries the record through the column's rows in order, so the plain Java's bits (more
   * columns than a block of the CPU's interchanged loops, 1024, in the second size).
   */
  @Test
  void columnStatisticsFusedWithTheirEpilogue() {
    for (int[] size : new int[][] {{3, 7}, {300, 2100}}) {
      int b = size[0];
      int n = size[1];
      float[] x = Data.floats(94 + b, b * n, 99f, 101f);
      float[] plain = new float[n];
      MonoidComposites.columnDeviations(b, n, x, plain);
      float[] kernel = new float[n];
      MonoidCompositesKernels.columnDeviations(b, n, x, kernel);
      assertArrayEquals(plain, kernel);
    }
  }

  /**
   * A record over all workers and the root of its variance, run once after every worker in the
   * same kernel: the unfused kernels' bits (the chunks' records combined in the fixed tree, then the
   * root), and the plain loop's value within float Welford's rounding.
   */
  @Test
  void aTotalRecordsScalarEpilogueRunsAfterEveryWorker() throws IOException {
    for (int n : new int[] {0, 1, 7, 300_000}) {
      float[] x = Data.floats(95 + n, n, 9f, 11f);
      MeanVar[] total = {MeanVar.empty()};
      MonoidsKernels.meanVar(n, x, total);
      float[] kernel = {Float.NaN};
      MonoidCompositesKernels.spread(n, x, kernel);
      assertEquals(dev.kiln.KMath.sqrt(total[0].variance()), kernel[0], "the unfused kernels' bits, N=" + n);
      float[] plain = {Float.NaN};
      MonoidComposites.spread(n, x, plain);
      assertEquals(plain[0], kernel[0], 1e-4f * Math.max(1f, plain[0]), "the plain loop, N=" + n);
    }
    String spread = fusion("spread");
    assertTrue(spread.contains("fused into 2 kernels"), spread);
    assertTrue(spread.contains("kernel spread_k1 fuses meanVar#1, deviation#1"), spread);
    assertTrue(spread.contains("  after every worker {"), spread);
  }

  @Test
  void theIdentityIsStoredEvenWhereOnlyAnotherComponentIsReadAfter() {
    // all values negative: started from zeros (value 0, index 0) instead of ArgMax.none() (index -1),
    // the reduction would keep index 0
    int n = 10_000;
    float[] x = Data.floats(93, n, -9f, -1f);
    x[777] = -0.5f;
    float[] plain = new float[n];
    MonoidComposites.oneHotOfMax(n, x, plain);
    float[] kernel = new float[n];
    MonoidCompositesKernels.oneHotOfMax(n, x, kernel);
    assertEquals(1f, plain[777]);
    assertArrayEquals(plain, kernel);
  }

  @Test
  void theFusionReportShowsTheKernels() throws IOException {
    String rows = fusion("rowStandardize");
    // the identity's stores, then one kernel: each row's statistics carried by its worker, then the row standardised
    assertTrue(rows.contains("fused into 2 kernels; temporaries allocated: s_n, s_mean, s_m2"), rows);
    assertTrue(rows.contains("edge affine#1 -> rowMeanVar#1 via t: fused, inlined"), rows);
    assertTrue(rows.contains("edge rowMeanVar#1 -> standardizeRows#1 via s_mean: fused, one kernel"), rows);
    assertTrue(rows.contains("kernel rowStandardize_k1 fuses affine#1, empties#1, rowMeanVar#1, standardizeRows#1"), rows);
    // statistics by columns are a reduction across workers: the next call starts a kernel
    String columns = fusion("columnStandardize");
    assertTrue(columns.contains("fused into 3 kernels"), columns);
    // statistics down the columns of a 2-D grid: a worker a column carries them, and the epilogue joins
    String deviations = fusion("columnDeviations");
    assertTrue(deviations.contains("fused into 2 kernels"), deviations);
    assertTrue(deviations.contains("edge columnStats#1 -> deviations#1 via s_n: fused, one kernel"), deviations);
    assertTrue(deviations.contains("reduces down columns"), deviations);
    // a call's arguments say how it writes them: stored (out) or accumulated into (reduce)
    assertTrue(deviations.contains("columnStats#1 = columnStats(B, N, x, reduce s_n, reduce s_mean, reduce s_m2)"),
        deviations);
    assertTrue(deviations.contains("empties#1 = empties(N, out s_n, out s_mean, out s_m2)"), deviations);
    String max = fusion("oneHotOfMax");
    assertTrue(max.contains("store m_index[i] = -1"), max);
  }

  @Test
  void derivedGradientsAgreeWithCentralDifferences() {
    int b = 3;
    int n = 9;
    float[] x = Data.floats(94, b * n, -2f, 2f);
    float[] dy = Data.floats(95, b * n, -1f, 1f);
    for (boolean rows : new boolean[] {true, false}) {
      float[] y = new float[b * n];
      float[] dx = new float[b * n];
      if (rows) {
        MonoidCompositesKernels.rowStandardize(b, n, x, y);
        MonoidCompositesKernels.rowStandardizeGrad(b, n, x, y, dy, dx);
      } else {
        MonoidCompositesKernels.columnStandardize(b, n, x, y);
        MonoidCompositesKernels.columnStandardizeGrad(b, n, x, y, dy, dx);
      }
      boolean byRows = rows;
      MonoidGradientsTest.assertGradient(x, dx, 1e-2f, 2e-2, v -> weighted(byRows, b, n, v, dy));
    }
  }

  @Test
  void recordsAsTheCompositesOwnParameters() {
    int b = 37;
    int n = 500;
    float[] x = Data.floats(96, b * n, -4f, 6f);
    // @Out @Reduce: the caller's records are extended
    MeanVar[] plain = MonoidsTest.empties(b);
    MonoidComposites.extendRowStats(b, n, x, plain);
    MonoidComposites.extendRowStats(b, n, x, plain);
    MeanVar[] kernel = MonoidsTest.empties(b);
    MonoidCompositesKernels.extendRowStats(b, n, x, kernel);
    MonoidCompositesKernels.extendRowStats(b, n, x, kernel);
    for (int r = 0; r < b; r++) {
      assertEquals(2f * n, kernel[r].n(), "row " + r + " counted twice");
      assertEquals(plain[r].mean(), kernel[r].mean(), 1e-5, "row " + r);
      assertEquals(plain[r].variance(), kernel[r].variance(), 1e-4 * plain[r].variance(), "row " + r);
    }
    // @Out: filled inside, then reduced into by rows and read by the same kernel: the plain Java's bits
    float[] y = new float[b * n];
    MeanVar[] stats = new MeanVar[b];
    MonoidComposites.rowStandardizeWithStats(b, n, x, y, stats);
    float[] ky = new float[b * n];
    MeanVar[] kstats = new MeanVar[b];
    MonoidCompositesKernels.rowStandardizeWithStats(b, n, x, ky, kstats);
    assertArrayEquals(y, ky);
    assertArrayEquals(stats, kstats);
    // an input array of records
    float[] by = new float[b * n];
    MonoidComposites.standardizeBy(b, n, x, stats, by);
    float[] kby = new float[b * n];
    MonoidCompositesKernels.standardizeBy(b, n, x, stats, kby);
    assertArrayEquals(by, kby);
    assertArrayEquals(y, kby, "the statistics it returned standardise the rows as it did");
    // nested: the records one composite returns passed to the other
    float[] twice = new float[b * n];
    MonoidCompositesKernels.standardizeTwice(b, n, x, twice);
    assertArrayEquals(y, twice);
  }

  /** {@code sum dy * y} of the plain Java composite. */
  private static double weighted(boolean rows, int b, int n, float[] x, float[] dy) {
    float[] y = new float[b * n];
    if (rows) {
      MonoidComposites.rowStandardize(b, n, x, y);
    } else {
      MonoidComposites.columnStandardize(b, n, x, y);
    }
    double l = 0;
    for (int i = 0; i < y.length; i++) {
      l += (double) dy[i] * y[i];
    }
    return l;
  }
}
