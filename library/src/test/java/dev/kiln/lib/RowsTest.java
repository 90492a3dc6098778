package dev.kiln.lib;

import dev.kiln.testing.Agreement;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every {@link Rows} operator, source against generated CPU kernel. The reductions run their row
 * loop in source order inside one worker and the broadcasts do one operation per element, so the
 * results must be identical.
 */
class RowsTest {
  /** Row count and length: empty either way, a single row or column, odd, several chunks. */
  private static final int[][] SIZES = {
    {1, 1}, {1, 9}, {9, 1}, {3, 5}, {0, 5}, {5, 0}, {7, 1001}, {64, 300}, {300, 64}
  };

  interface Reduction {
    void run(int b, int n, float[] x, float[] out);
  }

  interface Broadcast {
    void run(int b, int n, float[] x, float[] v, float[] out);
  }

  static Stream<Arguments> reductions() {
    return cases(
        Arguments.of("rowMax", (Reduction) Rows::rowMax, (Reduction) RowsKernels::rowMax),
        Arguments.of("rowSum", (Reduction) Rows::rowSum, (Reduction) RowsKernels::rowSum),
        Arguments.of("rowMean", (Reduction) Rows::rowMean, (Reduction) RowsKernels::rowMean));
  }

  @ParameterizedTest(name = "B={0}, N={1}")
  @CsvSource({"1, 1", "1, 9", "9, 1", "3, 5", "0, 5", "5, 0", "7, 1001", "64, 300"})
  void rowArgMaxIsThePlainJavas(int b, int n) {
    float[] x = Data.floats(91, b * n);
    for (int r = 0; r < b && n > 2; r++) {
      x[r * n + n - 1] = x[r * n + 1]; // a tie, which the first occurrence wins
    }
    float[] max = new float[b];
    int[] index = new int[b];
    Rows.rowArgMax(b, n, x, max, index);
    float[] max2 = new float[b];
    int[] index2 = new int[b];
    java.util.Arrays.fill(index2, 99);
    RowsKernels.rowArgMax(b, n, x, max2, index2);
    Agreement.assertSame(max, max2);
    org.junit.jupiter.api.Assertions.assertArrayEquals(index, index2);
    for (int r = 0; r < b; r++) {
      int best = -1;
      for (int c = 0; c < n; c++) {
        if (best < 0 || x[r * n + c] > x[r * n + best]) {
          best = c;
        }
      }
      org.junit.jupiter.api.Assertions.assertEquals(best, index2[r], "row " + r);
    }
  }

  /** Broadcasts of a per-row vector ({@code [B]}). */
  static Stream<Arguments> rowBroadcasts() {
    return cases(
        Arguments.of("addRow", (Broadcast) Rows::addRow, (Broadcast) RowsKernels::addRow),
        Arguments.of("subRow", (Broadcast) Rows::subRow, (Broadcast) RowsKernels::subRow),
        Arguments.of("mulRow", (Broadcast) Rows::mulRow, (Broadcast) RowsKernels::mulRow),
        Arguments.of("divRow", (Broadcast) Rows::divRow, (Broadcast) RowsKernels::divRow));
  }

  /** Broadcasts of a per-column vector ({@code [N]}). */
  static Stream<Arguments> columnBroadcasts() {
    return cases(
        Arguments.of("addCols", (Broadcast) Rows::addCols, (Broadcast) RowsKernels::addCols),
        Arguments.of("mulCols", (Broadcast) Rows::mulCols, (Broadcast) RowsKernels::mulCols));
  }

  private static Stream<Arguments> cases(Arguments... operators) {
    return Stream.of(operators)
        .flatMap(
            op ->
                Stream.of(SIZES)
                    .map(s -> Arguments.of(op.get()[0], s[0], s[1], op.get()[1], op.get()[2])));
  }

  @ParameterizedTest(name = "{0} B={1}, N={2}")
  @MethodSource("reductions")
  void reductionAgrees(String name, int b, int n, Reduction source, Reduction kernel) {
    float[] x = Data.floats(21, b * n, -10f, 10f);
    float[] expected = Data.filled(b, Float.NaN);
    source.run(b, n, x, expected);
    float[] actual = Data.filled(b, Float.NaN);
    kernel.run(b, n, x, actual);
    Agreement.assertSame(expected, actual);
  }

  @ParameterizedTest(name = "{0} B={1}, N={2}")
  @MethodSource("rowBroadcasts")
  void rowBroadcastAgrees(String name, int b, int n, Broadcast source, Broadcast kernel) {
    broadcastAgrees(b, n, b, source, kernel);
  }

  @ParameterizedTest(name = "{0} B={1}, N={2}")
  @MethodSource("columnBroadcasts")
  void columnBroadcastAgrees(String name, int b, int n, Broadcast source, Broadcast kernel) {
    broadcastAgrees(b, n, n, source, kernel);
  }

  private static void broadcastAgrees(int b, int n, int vLength, Broadcast source, Broadcast kernel) {
    float[] x = Data.floats(22, b * n, -10f, 10f);
    float[] v = Data.floats(23, vLength, 0.5f, 2f);
    float[] expected = Data.filled(b * n, Float.NaN);
    source.run(b, n, x, v, expected);
    float[] actual = Data.filled(b * n, Float.NaN);
    kernel.run(b, n, x, v, actual);
    Agreement.assertSame(expected, actual);
  }

  /** A row of NaN, of infinities, of equal values and of lowest floats: the running maximum. */
  @ParameterizedTest(name = "{0}")
  @CsvSource({"NaN", "-Infinity", "Infinity", "-3.4028235e38", "0", "-0"})
  void rowMaxOfSpecialRows(float special) {
    int b = 3;
    int n = 4;
    float[] x = {special, special, special, special, -1f, special, 2f, special, 5f, 6f, 7f, special};
    float[] expected = Data.filled(b, 42f);
    Rows.rowMax(b, n, x, expected);
    float[] actual = Data.filled(b, 42f);
    RowsKernels.rowMax(b, n, x, actual);
    Agreement.assertSame(expected, actual);
  }
}
