package dev.kiln.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.kiln.testing.Agreement;
import dev.kiln.tests.ops.Reductions;
import dev.kiln.tests.ops.ReductionsKernels;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code @Reduce} outputs. Both runs start from the same initial content, which the kernel must
 * fold its result into, exactly as the plain loop does.
 *
 * <p>Each reduction is checked twice: on data whose sums (or products) are exact in any order,
 * where the kernel must match exactly, so a dropped, repeated or misrouted contribution cannot hide
 * in a tolerance; and on random data, within {@link Agreement#sumTolerance(float[])}.
 */
class ReductionsTest {
  @ParameterizedTest(name = "N={0}")
  @ValueSource(ints = {0, 1, 7, 1000, 20_001})
  void sumOfExactData(int n) {
    float[] x = Data.dyadic(101, n);
    for (float initial : new float[] {0f, 2.5f}) {
      float[] expected = {initial};
      Reductions.sum(n, x, expected);
      float[] actual = {initial};
      ReductionsKernels.sum(n, x, actual);
      Agreement.assertSame(expected, actual);
    }
  }

  @ParameterizedTest(name = "N={0}")
  @ValueSource(ints = {0, 1, 7, 1000, 20_001})
  void aSumWrittenOutIsTheSameReduction(int n) {
    float[] x = Data.dyadic(105, n);
    float[] expected = {2.5f};
    float[] expectedT = {-1f};
    Reductions.sumAssigned(n, x, expected, expectedT);
    float[] actual = {2.5f};
    float[] actualT = {-1f};
    ReductionsKernels.sumAssigned(n, x, actual, actualT);
    Agreement.assertSame(expected, actual);
    Agreement.assertSame(expectedT, actualT);
  }

  @ParameterizedTest(name = "N={0}")
  @ValueSource(ints = {1, 7, 1000, 20_001})
  void sumOfRandomData(int n) {
    float[] x = Data.floats(102, n);
    float[] expected = {0f};
    Reductions.sum(n, x, expected);
    float[] actual = {0f};
    ReductionsKernels.sum(n, x, actual);
    Agreement.assertClose(expected, actual, 0, Agreement.sumTolerance(x));
  }

  @ParameterizedTest(name = "N={0}")
  @ValueSource(ints = {0, 1, 7, 1000, 20_001})
  void dot(int n) {
    float[] a = Data.integral(103, n, 16);
    float[] b = Data.integral(104, n, 16);
    float[] expected = {-3f};
    Reductions.dot(n, a, b, expected);
    float[] actual = {-3f};
    ReductionsKernels.dot(n, a, b, actual);
    Agreement.assertSame(expected, actual);

    float[] ra = Data.floats(105, n);
    float[] rb = Data.floats(106, n);
    float[] products = new float[n];
    for (int i = 0; i < n; i++) {
      products[i] = ra[i] * rb[i];
    }
    expected[0] = 0f;
    Reductions.dot(n, ra, rb, expected);
    actual[0] = 0f;
    ReductionsKernels.dot(n, ra, rb, actual);
    Agreement.assertClose(expected, actual, 0, Agreement.sumTolerance(products));
  }

  @ParameterizedTest(name = "N={0}")
  @ValueSource(ints = {0, 1, 7, 1000, 20_001})
  void maxAndMin(int n) {
    float[] x = Data.floats(107, n, -50f, 50f);
    for (float initial : new float[] {Float.NEGATIVE_INFINITY, 0f, 100f}) {
      float[] expected = {initial};
      Reductions.maxAll(n, x, expected);
      float[] actual = {initial};
      ReductionsKernels.maxAll(n, x, actual);
      Agreement.assertSame(expected, actual);
    }
    for (float initial : new float[] {Float.POSITIVE_INFINITY, 0f, -100f}) {
      float[] expected = {initial};
      Reductions.minAll(n, x, expected);
      float[] actual = {initial};
      ReductionsKernels.minAll(n, x, actual);
      Agreement.assertSame(expected, actual);
    }
  }

  @ParameterizedTest(name = "N={0}")
  @ValueSource(ints = {0, 1, 7, 1000, 3001})
  void product(int n) {
    double[] x = Data.powersOfTwo(108, n);
    double[] expected = {3.0};
    Reductions.product(n, x, expected);
    double[] actual = {3.0};
    ReductionsKernels.product(n, x, actual);
    Agreement.assertSame(expected, actual);

    double[] r = Data.doubles(109, n, 0.95, 1.05);
    expected[0] = 1.0;
    Reductions.product(n, r, expected);
    actual[0] = 1.0;
    ReductionsKernels.product(n, r, actual);
    // Each product rounds once: n roundings in any order stay within 2 n eps relative.
    Agreement.assertClose(expected, actual, 2.0 * Math.max(1, n) * Math.ulp(1.0), 0);
  }

  @ParameterizedTest(name = "N={0}")
  @ValueSource(ints = {0, 1, 7, 1000, 20_001})
  void countPositive(int n) {
    float[] x = Data.floats(110, n);
    int[] expected = {5};
    Reductions.countPositive(n, x, expected);
    int[] actual = {5};
    ReductionsKernels.countPositive(n, x, actual);
    assertArrayEquals(expected, actual);
  }

  @ParameterizedTest(name = "B={0}, K={1}")
  @CsvSource({"1, 1", "3, 5", "0, 4", "4, 0", "1, 20001", "20001, 1", "64, 300", "300, 64"})
  void rowSums(int b, int k) {
    float[] x = Data.dyadic(111, b * k);
    float[] expected = Data.dyadic(112, b);
    float[] actual = expected.clone();
    Reductions.rowSums(b, k, x, expected);
    ReductionsKernels.rowSums(b, k, x, actual);
    Agreement.assertSame(expected, actual);

    float[] r = Data.floats(113, b * k);
    expected = new float[b];
    actual = new float[b];
    Reductions.rowSums(b, k, r, expected);
    ReductionsKernels.rowSums(b, k, r, actual);
    Agreement.assertClose(expected, actual, 0, maxRowTolerance(r, b, k));
  }

  @ParameterizedTest(name = "B={0}, K={1}")
  @CsvSource({"1, 1", "3, 5", "0, 4", "4, 0", "1, 20001", "20001, 1", "64, 300", "300, 64"})
  void colSums(int b, int k) {
    float[] x = Data.dyadic(114, b * k);
    float[] expected = Data.dyadic(115, k);
    float[] actual = expected.clone();
    Reductions.colSums(b, k, x, expected);
    ReductionsKernels.colSums(b, k, x, actual);
    Agreement.assertSame(expected, actual);

    float[] r = Data.floats(116, b * k);
    float[] transposed = new float[b * k];
    for (int i = 0; i < b; i++) {
      for (int j = 0; j < k; j++) {
        transposed[j * b + i] = r[i * k + j];
      }
    }
    expected = new float[k];
    actual = new float[k];
    Reductions.colSums(b, k, r, expected);
    ReductionsKernels.colSums(b, k, r, actual);
    Agreement.assertClose(expected, actual, 0, maxRowTolerance(transposed, k, b));
  }

  /**
   * The CPU runtime combines per-chunk partials in a fixed tree, so a float reduction gives the
   * same bits every time, whatever the threads' timing.
   */
  @Test
  void repeatedRunsGiveTheSameBits() {
    float[] x = Data.floats(118, 100_003);
    float[] first = {0f};
    ReductionsKernels.sum(x.length, x, first);
    float[] firstCols = new float[300];
    ReductionsKernels.colSums(
        x.length / 300, 300, Arrays.copyOf(x, x.length / 300 * 300), firstCols);
    for (int run = 0; run < 5; run++) {
      float[] again = {0f};
      ReductionsKernels.sum(x.length, x, again);
      Agreement.assertSame(first, again);
      float[] againCols = new float[300];
      ReductionsKernels.colSums(
          x.length / 300, 300, Arrays.copyOf(x, x.length / 300 * 300), againCols);
      Agreement.assertSame(firstCols, againCols);
    }
  }

  /** One worker, no parallel loop: the scan is sequential, so it matches closely. */
  @ParameterizedTest(name = "N={0}")
  @ValueSource(ints = {0, 1, 7, 1000, 20_001})
  void prefixSum(int n) {
    float[] x = Data.floats(117, n);
    float[] expected = Data.filled(n, Float.NaN);
    Reductions.prefixSum(n, x, expected);
    float[] actual = Data.filled(n, Float.NaN);
    ReductionsKernels.prefixSum(n, x, actual);
    Agreement.assertClose(expected, actual, Agreement.FLOAT_REL, Agreement.FLOAT_ABS);
  }

  /** The largest {@link Agreement#sumTolerance} over the rows of a {@code rows x cols} matrix. */
  private static double maxRowTolerance(float[] x, int rows, int cols) {
    double tolerance = 0;
    for (int i = 0; i < rows; i++) {
      float[] row = Arrays.copyOfRange(x, i * cols, (i + 1) * cols);
      tolerance = Math.max(tolerance, Agreement.sumTolerance(row));
    }
    return tolerance;
  }

  /** Accumulated at an index of the loop variables: exact on integral data, so any order agrees. */
  @ParameterizedTest(name = "B={0} K={1} N={2}")
  @CsvSource({"1, 1, 1", "7, 3, 5", "300, 17, 9", "0, 4, 4"})
  void outerProductSum(int b, int k, int n) {
    float[] x = Data.integral(120, b * k, 8);
    float[] dy = Data.integral(121, b * n, 8);
    float[] expected = Data.integral(122, k * n, 4);
    float[] actual = expected.clone();
    Reductions.outerProductSum(b, k, n, x, dy, expected);
    ReductionsKernels.outerProductSum(b, k, n, x, dy, actual);
    Agreement.assertSame(expected, actual);
  }

  @ParameterizedTest(name = "B={0} K={1}")
  @CsvSource({"1, 1", "5, 3", "300, 41"})
  void rowAndColumnSums(int b, int k) {
    float[] x = Data.integral(123, b * k, 16);
    float[] rows = Data.integral(124, b, 4);
    float[] cols = Data.integral(125, k, 4);
    float[] actualRows = rows.clone();
    float[] actualCols = cols.clone();
    Reductions.rowAndColumnSums(b, k, x, rows, cols);
    ReductionsKernels.rowAndColumnSums(b, k, x, actualRows, actualCols);
    Agreement.assertSame(rows, actualRows);
    Agreement.assertSame(cols, actualCols);
  }

  @ParameterizedTest(name = "B={0} K={1}")
  @CsvSource({"1, 1", "5, 3", "300, 41"})
  void columnMaxByRows(int b, int k) {
    double[] x = Data.doubles(126, b * k, -50, 50);
    double[] expected = new double[k];
    java.util.Arrays.fill(expected, -20);
    double[] actual = expected.clone();
    Reductions.columnMaxByRows(b, k, x, expected);
    ReductionsKernels.columnMaxByRows(b, k, x, actual);
    Agreement.assertSame(expected, actual);
  }

  /** A data-dependent index, negative buckets included. */
  @ParameterizedTest(name = "N={0} M={1}")
  @CsvSource({"0, 3", "1, 1", "1000, 7", "20001, 64"})
  void histogram(int n, int m) {
    int[] bucket = Data.ints(127, n, -1000, 1000);
    int[] expected = Data.ints(128, m, 0, 5);
    int[] actual = expected.clone();
    Reductions.histogram(n, m, bucket, expected);
    ReductionsKernels.histogram(n, m, bucket, actual);
    org.junit.jupiter.api.Assertions.assertArrayEquals(expected, actual);
  }

  @ParameterizedTest(name = "N={0}")
  @ValueSource(ints = {0, 1, 7, 130})
  void antiDiagonalSums(int n) {
    float[] x = Data.integral(129, n * n, 16);
    float[] expected = Data.integral(130, 2 * n, 4);
    float[] actual = expected.clone();
    Reductions.antiDiagonalSums(n, x, expected);
    ReductionsKernels.antiDiagonalSums(n, x, actual);
    Agreement.assertSame(expected, actual);
  }

  @ParameterizedTest(name = "B={0} K={1}")
  @CsvSource({"1, 1", "5, 3", "300, 41", "4, 0"})
  void rowMoments(int b, int k) {
    double[] x = Data.powersOfTwo(131, b * k);
    double[] sum = Data.doubles(132, b, -4, 4);
    double[] squares = sum.clone();
    double[] actualSum = sum.clone();
    double[] actualSquares = squares.clone();
    Reductions.rowMoments(b, k, x, sum, squares);
    ReductionsKernels.rowMoments(b, k, x, actualSum, actualSquares);
    Agreement.assertSame(sum, actualSum);
    Agreement.assertSame(squares, actualSquares);
  }

  /** A sum over no terms leaves the output as it was, -0.0 included (the identity is -0.0, not +0.0). */
  @Test
  void aSumOverNothingKeepsNegativeZero() {
    float[] s = {-0f};
    ReductionsKernels.sum(0, new float[0], s);
    org.junit.jupiter.api.Assertions.assertEquals(Float.floatToRawIntBits(-0f), Float.floatToRawIntBits(s[0]));
    float[] rows = {-0f, -0f};
    ReductionsKernels.rowSums(2, 0, new float[0], rows);
    org.junit.jupiter.api.Assertions.assertEquals(Float.floatToRawIntBits(-0f), Float.floatToRawIntBits(rows[1]));
  }
}
