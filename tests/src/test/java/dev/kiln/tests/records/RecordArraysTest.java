package dev.kiln.tests.records;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.testing.Agreement;
import dev.kiln.tests.Data;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * Array parameters of records in and out of operators: the record launchers copy the components
 * in and build records out, and the kernels (one array of numbers a component) compute the plain
 * Java's bits.
 */
class RecordArraysTest {
  @ParameterizedTest(name = "B={0}, N={1}")
  @CsvSource({"1, 1", "0, 3", "3, 0", "7, 5", "64, 300", "1000, 17"})
  void recordsInAndOutAreThePlainJavasBits(int b, int n) {
    float[] x = Data.floats(31 + b + n, b * n, -1f, 5f);
    MeanVar[] rows = new MeanVar[b];
    RecordArrays.rowSummaries(b, n, x, rows);
    MeanVar[] rows2 = new MeanVar[b]; // an output's elements are only written: nulls are fine
    RecordArraysKernels.rowSummaries(b, n, x, rows2);
    assertArrayEquals(rows, rows2);

    MeanVar[] cols = MonoidsTest.empties(n);
    Monoids.columnMeanVar(b, n, x, cols);
    float[] y = new float[b * n];
    RecordArrays.standardize(b, n, x, cols, y);
    float[] y2 = new float[b * n];
    RecordArraysKernels.standardize(b, n, x, cols, y2);
    Agreement.assertSame(y, y2);

    MeanVar[] after = MonoidsTest.empties(b);
    RecordArrays.extend(b, n, x, rows, after);
    MeanVar[] after2 = MonoidsTest.empties(b);
    RecordArraysKernels.extend(b, n, x, rows, after2);
    assertArrayEquals(after, after2, "rows split among chunks: each row's updates in the source's order");
  }

  /** The complex numbers {@code re[i] + i im[i]}. */
  static Complex[] complexes(float[] re, float[] im) {
    Complex[] z = new Complex[re.length];
    for (int i = 0; i < re.length; i++) {
      z[i] = new Complex(re[i], im[i]);
    }
    return z;
  }

  @Test
  void complexNumbersInAndOut() {
    int n = 10_001;
    float[] re = Data.floats(32, n, -1f, 1f);
    float[] im = Data.floats(33, n, -1f, 1f);
    Complex[] z = complexes(re, im);
    Complex[] w = new Complex[n];
    RecordArrays.complexAffine(n, z, 0.5f, -2f, w);
    Complex[] w2 = new Complex[n];
    RecordArraysKernels.complexAffine(n, z, 0.5f, -2f, w2);
    assertArrayEquals(w, w2);
  }

  @Test
  void statisticsReducedThenUsedStandardiseTheColumns() {
    int b = 5000;
    int n = 12;
    float[] x = Data.floats(34, b * n, 93f, 107f);
    MeanVar[] cols = MonoidsTest.empties(n);
    MonoidsKernels.columnMeanVar(b, n, x, cols);
    float[] y = new float[b * n];
    RecordArraysKernels.standardize(b, n, x, cols, y);
    MeanVar[] check = MonoidsTest.empties(n);
    MonoidsKernels.columnMeanVar(b, n, y, check);
    for (int k = 0; k < n; k++) {
      assertEquals(0f, check[k].mean(), 1e-4f, "column " + k);
      assertEquals(1f, check[k].variance(), 1e-3f, "column " + k);
    }
  }

  /** {@code L = sum(dy * y)} through the plain Java, in double, at {@code s} with one component moved. */
  private static double loss(int b, int n, float[] x, float[] sn, float[] sm, float[] s2, float[] dy) {
    MeanVar[] s = new MeanVar[n];
    for (int k = 0; k < n; k++) {
      s[k] = new MeanVar(sn[k], sm[k], s2[k]);
    }
    float[] y = new float[b * n];
    RecordArrays.standardize(b, n, x, s, y);
    double l = 0;
    for (int i = 0; i < y.length; i++) {
      l += (double) dy[i] * y[i];
    }
    return l;
  }

  /** The derived gradient takes and gives one array a component; checked against central differences. */
  @Test
  void theDerivedGradientReachesEachComponent() {
    int b = 3;
    int n = 4;
    float[] x = Data.floats(36, b * n, -1f, 3f);
    float[] sn = {3f, 5f, 8f, 13f};
    float[] sm = Data.floats(37, n, 0.5f, 1.5f);
    float[] s2 = {2f, 7f, 4f, 9f};
    float[] dy = Data.floats(38, b * n, -1f, 1f);
    MeanVar[] s = new MeanVar[n];
    for (int k = 0; k < n; k++) {
      s[k] = new MeanVar(sn[k], sm[k], s2[k]);
    }
    float[] y = new float[b * n];
    RecordArraysKernels.standardize(b, n, x, s, y);
    float[] dx = new float[b * n];
    float[][] ds = {new float[n], new float[n], new float[n]};
    RecordArraysKernels.standardizeGrad(b, n, x, sn, sm, s2, y, dy, dx, ds[0], ds[1], ds[2]);
    float[][] at = {sn, sm, s2};
    for (int c = 0; c < 3; c++) {
      for (int k = 0; k < n; k++) {
        float keep = at[c][k];
        float h = 1e-2f * Math.max(1f, Math.abs(keep));
        at[c][k] = keep + h;
        double up = loss(b, n, x, sn, sm, s2, dy);
        at[c][k] = keep - h;
        double down = loss(b, n, x, sn, sm, s2, dy);
        at[c][k] = keep;
        double fd = (up - down) / (2 * h);
        assertEquals(fd, ds[c][k], 2e-2 * Math.max(1, Math.abs(fd)), "component " + c + ", element " + k);
      }
    }
    for (int i = 0; i < b * n; i++) {
      float keep = x[i];
      x[i] = keep + 1e-2f;
      double up = loss(b, n, x, sn, sm, s2, dy);
      x[i] = keep - 1e-2f;
      double down = loss(b, n, x, sn, sm, s2, dy);
      x[i] = keep;
      assertEquals((up - down) / 2e-2, dx[i], 2e-2, "x " + i);
    }
  }

  @Test
  void misuseNamesTheOperatorAndTheArgument() {
    float[] x = Data.floats(35, 6, -1f, 1f);
    MeanVar[] holes = {MeanVar.empty(), null, MeanVar.empty()};
    IllegalArgumentException hole = assertThrows(IllegalArgumentException.class,
        () -> RecordArraysKernels.standardize(2, 3, x, holes, new float[6]));
    assertTrue(hole.getMessage().startsWith("standardize: argument 's' has null at index 1"), hole.getMessage());
    IllegalArgumentException length = assertThrows(IllegalArgumentException.class,
        () -> RecordArraysKernels.standardize(2, 3, x, MonoidsTest.empties(2), new float[6]));
    assertTrue(length.getMessage().startsWith("standardize: argument 's'"), length.getMessage());
    MeanVar[] same = MonoidsTest.empties(2);
    IllegalArgumentException alias = assertThrows(IllegalArgumentException.class,
        () -> RecordArraysKernels.extend(2, 3, x, same, same));
    assertTrue(alias.getMessage().startsWith("extend: "), alias.getMessage());
    assertTrue(alias.getMessage().contains("'after'") && alias.getMessage().contains("'before'"), alias.getMessage());
  }
}
