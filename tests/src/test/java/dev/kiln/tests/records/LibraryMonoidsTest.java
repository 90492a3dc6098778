package dev.kiln.tests.records;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.tests.Data;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Composites of the library's monoid operators, read from its jar's IR ({@link LibraryMonoids}):
 * fused as if their source were here, against the plain Java composite and double precision.
 */
class LibraryMonoidsTest {
  private static String listing() throws IOException {
    try (InputStream in = LibraryMonoidsTest.class.getResourceAsStream(
        "/META-INF/kiln/dev/kiln/tests/records/LibraryMonoids.ir.txt")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** Each column's deviation, in double precision. */
  private static float[] deviations(int b, int n, float[] x) {
    float[] out = new float[n];
    for (int c = 0; c < n; c++) {
      double sum = 0;
      for (int r = 0; r < b; r++) {
        sum += x[r * n + c];
      }
      double mean = sum / b;
      double m2 = 0;
      for (int r = 0; r < b; r++) {
        m2 += (x[r * n + c] - mean) * (x[r * n + c] - mean);
      }
      out[c] = (float) Math.sqrt(m2 / b);
    }
    return out;
  }

  /** A worker a column carries the library's record through the column in order: the plain Java's bits. */
  @Test
  void columnStatisticsFromTheLibrarysIr() {
    for (int[] size : new int[][] {{1, 1}, {3, 7}, {500, 1100}}) {
      int b = size[0];
      int n = size[1];
      float[] x = Data.floats(96 + b, b * n, 99f, 101f);
      float[] plain = new float[n];
      LibraryMonoids.columnDeviations(b, n, x, plain);
      float[] kernel = new float[n];
      LibraryMonoidsKernels.columnDeviations(b, n, x, kernel);
      assertArrayEquals(plain, kernel);
      float[] want = deviations(b, n, x);
      for (int i = 0; i < n; i++) {
        assertEquals(want[i], plain[i], 1e-3, "column " + i);
      }
    }
  }

  /**
   * Over all workers: chunks' partial records combined in a fixed tree, then the epilogue's kernel,
   * against double precision.
   */
  @Test
  void statisticsOfAllWorkersFromTheLibrarysIr() {
    int n = 1 << 20;
    float[] x = Data.floats(97, n, 99f, 101f);
    float[] plain = new float[1];
    LibraryMonoids.deviation(n, x, plain);
    float[] kernel = new float[1];
    LibraryMonoidsKernels.deviation(n, x, kernel);
    float want = deviations(n, 1, x)[0];
    assertEquals(want, kernel[0], 1e-4, "chunks' records combined in a tree");
    // the plain Java's one chain of 2^20 float Welford updates drifts further (1.2e-4 here)
    assertEquals(want, plain[0], 1e-3, "the plain Java");
  }

  /** The derived gradient goes through the library's {@code @ElementGradient} method, read from its IR too. */
  @Test
  void derivedGradientAgreesWithCentralDifferences() {
    int b = 5;
    int n = 4;
    float[] x = Data.floats(98, b * n, -2f, 2f);
    float[] dout = Data.floats(99, n, -1f, 1f);
    float[] out = new float[n];
    LibraryMonoidsKernels.columnDeviations(b, n, x, out);
    float[] dx = new float[b * n];
    LibraryMonoidsKernels.columnDeviationsGrad(b, n, x, out, dout, dx);
    MonoidGradientsTest.assertGradient(x, dx, 1e-2f, 2e-2, v -> {
      float[] o = new float[n];
      LibraryMonoids.columnDeviations(b, n, v, o);
      double loss = 0;
      for (int i = 0; i < n; i++) {
        loss += (double) o[i] * dout[i];
      }
      return loss;
    });
  }

  @Test
  void theListingShowsTheLibrarysMonoidFused() throws IOException {
    String all = listing();
    int at = all.indexOf("\ncomposite columnDeviations(");
    String columns = all.substring(at, all.indexOf("\ncomposite ", at + 1));
    assertTrue(columns.contains("columnMeanVar#1 = columnMeanVar(B, N, x, reduce s_n, reduce s_mean, reduce s_m2)"),
        columns);
    assertTrue(columns.contains("fused into 2 kernels"), columns);
    assertTrue(columns.contains("edge columnMeanVar#1 -> deviations#1 via s_n: fused, one kernel"), columns);
  }

  /** The library jar's IR holds its monoid operators, the method inlined once each. */
  @Test
  void theLibrarysIrHoldsItsMonoids() throws IOException {
    try (InputStream in = LibraryMonoidsTest.class.getResourceAsStream("/dev/kiln/lib/Stats.kir")) {
      String kir = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(kir.contains("operator dev.kiln.lib.Stats columnMeanVar grid"), kir);
      assertTrue(kir.contains("  monoid 0 MeanVar combine 3 components n mean m2 left "), kir);
      assertTrue(kir.contains(" gradient gradient total "), kir);
      assertTrue(kir.contains("  combine 0 s s_n s_mean s_m2 "), kir);
    }
  }
}
