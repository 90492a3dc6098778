package dev.kiln.tests.fusion;

import static dev.kiln.tests.fusion.Runs.assertNoNaN;
import static dev.kiln.tests.fusion.Runs.nan;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.kiln.testing.Agreement;
import dev.kiln.tests.Data;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The composites of {@link Edges}, fused against plain Java. Tolerance: none, for the reason given
 * in {@link CompositesTest}, except {@link #centre} (a @Reduce over all workers adds in another
 * order: see the method).
 */
class EdgesTest {
  /** Needs elements above 1, where the producer's second store overwrites its first. */
  @ParameterizedTest(name = "N={0}")
  @MethodSource("dev.kiln.tests.fusion.Runs#lengths")
  void clampTanh(int n) {
    float[] x = Data.floats(71, n, -3f, 3f);
    if (n > 0) {
      x[0] = 2f;
    }
    Runs.Inputs inputs = new Runs.Inputs(x);
    float[] expected = nan(n);
    Edges.clampTanh(n, x, expected);
    float[] actual = nan(n);
    EdgesKernels.clampTanh(n, x, actual);
    assertNoNaN(expected, "out");
    Agreement.assertSame(expected, actual);
    inputs.assertUnchanged();
  }

  @ParameterizedTest(name = "N={0}")
  @MethodSource("dev.kiln.tests.fusion.Runs#lengths")
  void lastAboveTanh(int n) {
    float[] x = Data.floats(72, n, -3f, 3f);
    Runs.Inputs inputs = new Runs.Inputs(x);
    float[] expected = nan(n);
    Edges.lastAboveTanh(n, x, expected);
    float[] actual = nan(n);
    EdgesKernels.lastAboveTanh(n, x, actual);
    assertNoNaN(expected, "out");
    Agreement.assertSame(expected, actual);
    inputs.assertUnchanged();
  }

  @ParameterizedTest(name = "N={0}")
  @MethodSource("dev.kiln.tests.fusion.Runs#lengths")
  void padConv(int n) {
    float[] x = Data.floats(73, n, -3f, 3f);
    float[] k = {0.25f, -0.5f, 1.5f};
    Runs.Inputs inputs = new Runs.Inputs(x, k);
    float[] expected = nan(n);
    Edges.padConv(n, x, k, expected);
    float[] actual = nan(n);
    EdgesKernels.padConv(n, x, k, actual);
    assertNoNaN(expected, "out");
    Agreement.assertSame(expected, actual);
    inputs.assertUnchanged();
  }

  @ParameterizedTest(name = "M={0}, K={1}")
  @MethodSource("dev.kiln.tests.fusion.Runs#rows")
  void padConvMatvec(int m, int kk) {
    float[] a = Data.floats(74, m * kk);
    float[] x = Data.floats(75, kk);
    float[] k = {0.25f, -0.5f, 1.5f};
    Runs.Inputs inputs = new Runs.Inputs(a, x, k);
    float[] expected = nan(m);
    Edges.padConvMatvec(m, kk, a, x, k, expected);
    float[] actual = nan(m);
    EdgesKernels.padConvMatvec(m, kk, a, x, k, actual);
    assertNoNaN(expected, "out");
    // the matrix-vector product is a GEMM leaf; the 3-tap convolution passes its rounding on with gain sum|k|
    Agreement.assertWithinContraction(expected, actual, Agreement.matvecMagnitude(m, kk, a, x, 2.25f, m), kk);
    inputs.assertUnchanged();
  }

  @ParameterizedTest(name = "M={0}, N={1}")
  @MethodSource("dev.kiln.tests.fusion.Runs#rows")
  void gatherTanh(int m, int n) {
    float[] x = Data.floats(76, m, -3f, 3f);
    int[] raw = Data.anyInts(77, n);
    int[] rawBefore = raw.clone();
    Runs.Inputs inputs = new Runs.Inputs(x);
    float[] expected = nan(n);
    Edges.gatherTanh(m, n, x, raw, expected);
    float[] actual = nan(n);
    EdgesKernels.gatherTanh(m, n, x, raw, actual);
    assertNoNaN(expected, "out");
    Agreement.assertSame(expected, actual);
    inputs.assertUnchanged();
    assertArrayEquals(rawBefore, raw, "raw was modified");
  }

  /**
   * The mean comes from a @Reduce, which the kernel adds in a different order: on whole numbers
   * (exact sums) the result must be identical; on random data within {@link
   * Agreement#sumTolerance} of x, divided by N, for each element.
   */
  @ParameterizedTest(name = "N={0}")
  @MethodSource("dev.kiln.tests.fusion.Runs#lengths")
  void centre(int n) {
    float[] exact = Data.integral(78, n, 16);
    float[] expected = nan(n);
    Edges.centre(n, exact, expected);
    float[] actual = nan(n);
    EdgesKernels.centre(n, exact, actual);
    assertNoNaN(expected, "out");
    Agreement.assertSame(expected, actual);

    float[] x = Data.floats(79, n, -2f, 2f);
    Runs.Inputs inputs = new Runs.Inputs(x);
    Edges.centre(n, x, expected);
    EdgesKernels.centre(n, x, actual);
    Agreement.assertClose(expected, actual, 0, Agreement.sumTolerance(x) / n + 4 * Agreement.FLOAT_EPS * 2);
    inputs.assertUnchanged();
  }

  /**
   * A total over all workers and its scalar epilogue, one kernel: on whole numbers (exact sums) the
   * same bits as plain Java; on random data the root of the mean within the bound of a sum of
   * positive terms added in another order (the chunks' partial totals).
   */
  @ParameterizedTest(name = "N={0}")
  @MethodSource("rootMeanSquareLengths")
  void rootMeanSquare(int n) {
    float[] exact = Data.integral(80, n, wholeBound(n));
    float[] expected = nan(1);
    Edges.rootMeanSquare(n, exact, expected);
    float[] actual = nan(1);
    EdgesKernels.rootMeanSquare(n, exact, actual);
    Agreement.assertSame(expected, actual);

    float[] x = Data.floats(81, n, -2f, 2f);
    Runs.Inputs inputs = new Runs.Inputs(x);
    Edges.rootMeanSquare(n, x, expected);
    EdgesKernels.rootMeanSquare(n, x, actual);
    if (n > 0) {
      assertNoNaN(expected, "out");
    }
    Agreement.assertClose(expected, actual, (2.0 * n + 4) * Agreement.FLOAT_EPS, 0);
    inputs.assertUnchanged();
  }

  /** {@link Runs#lengths}, and one long enough that the kernel runs as several chunks whose totals are folded. */
  static java.util.stream.Stream<Integer> rootMeanSquareLengths() {
    return java.util.stream.Stream.concat(Runs.lengths(), java.util.stream.Stream.of(1 << 20));
  }

  /** A bound on whole numbers whose n squares add up exactly in float (below 2^24) in any order. */
  private static int wholeBound(int n) {
    return n > 65536 ? 2 : 16;
  }

  /** Two scalar epilogues in a row after the total, which is also an output: one kernel. */
  @ParameterizedTest(name = "N={0}")
  @MethodSource("rootMeanSquareLengths")
  void inverseRootMeanSquare(int n) {
    float[] x = Data.integral(82, n, wholeBound(n));
    float[] expectedTotal = {0.5f}; // a @Reduce output adds to what it holds
    float[] expected = nan(1);
    Edges.inverseRootMeanSquare(n, 1e-3f, x, expectedTotal, expected);
    float[] actualTotal = {0.5f};
    float[] actual = nan(1);
    EdgesKernels.inverseRootMeanSquare(n, 1e-3f, x, actualTotal, actual);
    Agreement.assertSame(expectedTotal, actualTotal);
    Agreement.assertSame(expected, actual);
  }

  /**
   * Row sums by a @Reduce, fused with the divide into a worker per row that adds each row's terms
   * in order, as plain Java does: the same bits.
   */
  @ParameterizedTest(name = "B={0}, K={1}")
  @MethodSource("dev.kiln.tests.fusion.Runs#rows")
  void rowNormalize(int b, int k) {
    float[] x = Data.floats(80, b * k, -2f, 2f);
    Runs.Inputs inputs = new Runs.Inputs(x);
    float[] expected = nan(b * k);
    Edges.rowNormalize(b, k, x, expected);
    float[] actual = nan(b * k);
    EdgesKernels.rowNormalize(b, k, x, actual);
    assertNoNaN(expected, "out");
    Agreement.assertSame(expected, actual);
    inputs.assertUnchanged();
  }

  @ParameterizedTest(name = "B={0}, K={1}")
  @MethodSource("dev.kiln.tests.fusion.Runs#rows")
  void rowInverseNorms(int b, int k) {
    float[] x = Data.floats(83, b * k, -2f, 2f);
    Runs.Inputs inputs = new Runs.Inputs(x);
    float[] expected = nan(b);
    Edges.rowInverseNorms(b, k, x, expected);
    float[] actual = nan(b);
    EdgesKernels.rowInverseNorms(b, k, x, actual);
    assertNoNaN(expected, "out");
    Agreement.assertSame(expected, actual);
    inputs.assertUnchanged();
  }

  /**
   * Column sums by a @Reduce, fused with the SGD step into a worker per column that adds each
   * column's terms in order (rows outermost over blocks of columns on the CPU): plain Java's bits,
   * where the unfused kernel added chunks of rows in a tree.
   */
  @ParameterizedTest(name = "B={0}, N={1}")
  @MethodSource("dev.kiln.tests.fusion.Runs#rows")
  void biasSgd(int b, int n) {
    float[] dy = Data.floats(86, b * n, -2f, 2f);
    float[] bias = Data.floats(87, n, -1f, 1f);
    Runs.Inputs inputs = new Runs.Inputs(dy, bias);
    float[] expected = nan(n);
    Edges.biasSgd(b, n, 0.125f, dy, bias, expected);
    float[] actual = nan(n);
    EdgesKernels.biasSgd(b, n, 0.125f, dy, bias, actual);
    assertNoNaN(expected, "out");
    Agreement.assertSame(expected, actual);
    inputs.assertUnchanged();
  }

  /** More columns than a block (1024) and more than a vector's tail: every block and lane folds its own column. */
  @org.junit.jupiter.api.Test
  void biasSgdAcrossBlocks() {
    int b = 9;
    int n = 2 * 1024 + 37;
    float[] dy = Data.floats(88, b * n, -2f, 2f);
    float[] bias = Data.floats(89, n, -1f, 1f);
    float[] expected = nan(n);
    Edges.biasSgd(b, n, 0.5f, dy, bias, expected);
    float[] actual = nan(n);
    EdgesKernels.biasSgd(b, n, 0.5f, dy, bias, actual);
    Agreement.assertSame(expected, actual);
  }

  /** rsqrt has no bit-exact vector form, so this kernel runs its scalar form's interchanged loops. */
  @ParameterizedTest(name = "B={0}, N={1}")
  @MethodSource("dev.kiln.tests.fusion.Runs#rows")
  void columnInverseNorms(int b, int n) {
    float[] x = Data.floats(90, b * n, -2f, 2f);
    Runs.Inputs inputs = new Runs.Inputs(x);
    float[] expected = nan(n);
    Edges.columnInverseNorms(b, n, x, expected);
    float[] actual = nan(n);
    EdgesKernels.columnInverseNorms(b, n, x, actual);
    assertNoNaN(expected, "out");
    Agreement.assertSame(expected, actual);
    inputs.assertUnchanged();
  }

  @ParameterizedTest(name = "B={0}, K={1}")
  @MethodSource("dev.kiln.tests.fusion.Runs#rows")
  void middleSumsBias(int b, int k) {
    int h = 5;
    float[] x = Data.floats(91, b * h * k, -2f, 2f);
    float[] bias = Data.floats(92, k, -1f, 1f);
    Runs.Inputs inputs = new Runs.Inputs(x, bias);
    float[] expected = nan(b * k);
    Edges.middleSumsBias(b, h, k, x, bias, expected);
    float[] actual = nan(b * k);
    EdgesKernels.middleSumsBias(b, h, k, x, bias, actual);
    assertNoNaN(expected, "out");
    Agreement.assertSame(expected, actual);
    inputs.assertUnchanged();
  }

  /** The maximum accumulates into the caller's {@code m}: its initial values (here some above the data) take part. */
  @ParameterizedTest(name = "B={0}, K={1}")
  @MethodSource("dev.kiln.tests.fusion.Runs#rows")
  void groupShift(int b, int k) {
    int h = 3;
    float[] x = Data.floats(84, b * h * k, -2f, 2f);
    float[] m0 = Data.floats(85, b * h, -3f, 2.5f);
    Runs.Inputs inputs = new Runs.Inputs(x);
    float[] expectedM = m0.clone();
    float[] expected = nan(b * h * k);
    Edges.groupShift(b, h, k, x, expectedM, expected);
    float[] actualM = m0.clone();
    float[] actual = nan(b * h * k);
    EdgesKernels.groupShift(b, h, k, x, actualM, actual);
    assertNoNaN(expected, "out");
    Agreement.assertSame(expectedM, actualM);
    Agreement.assertSame(expected, actual);
    inputs.assertUnchanged();
  }

  @ParameterizedTest(name = "N={0}")
  @MethodSource("dev.kiln.tests.fusion.Runs#lengths")
  void shadowedParam(int n) {
    float[] x = Data.floats(81, n, -3f, 3f);
    float[] other = Data.floats(82, n, 10f, 20f);
    Runs.Inputs inputs = new Runs.Inputs(x, other);
    float[] expected = nan(n);
    Edges.shadowedParam(n, x, other, expected);
    float[] actual = nan(n);
    EdgesKernels.shadowedParam(n, x, other, actual);
    assertNoNaN(expected, "out");
    Agreement.assertSame(expected, actual);
    inputs.assertUnchanged();
  }

  @ParameterizedTest(name = "N={0}")
  @MethodSource("dev.kiln.tests.fusion.Runs#lengths")
  void prefixTanh(int n) {
    float[] x = Data.floats(83, n, -1f, 1f);
    Runs.Inputs inputs = new Runs.Inputs(x);
    float[] expected = nan(n);
    Edges.prefixTanh(n, x, expected);
    float[] actual = nan(n);
    EdgesKernels.prefixTanh(n, x, actual);
    assertNoNaN(expected, "out");
    Agreement.assertSame(expected, actual);
    inputs.assertUnchanged();
  }
}
