package dev.kiln.tests.fusion;

import static dev.kiln.tests.fusion.Runs.assertNoNaN;
import static dev.kiln.tests.fusion.Runs.nan;

import dev.kiln.testing.Agreement;
import dev.kiln.tests.Data;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The composites of {@link Loops}, fused against plain Java. Tolerance: none, for the reason given
 * in {@link CompositesTest}, except for the {@code @Reduce} of {@link #sumSquares}: its kernel adds
 * per-chunk partial sums in a tree, so on random data it is held to {@link
 * Agreement#sumTolerance(float[])} of the squares, and on whole numbers (exact in any order) to
 * identity.
 */
class LoopsTest {
  @ParameterizedTest(name = "B={0}, K={1}, N={2}")
  @MethodSource("dev.kiln.tests.fusion.Runs#products")
  void denseRelu(int b, int k, int n) {
    float[] x = Data.floats(51, b * k);
    float[] w = Data.floats(52, k * n);
    float[] bias = Data.floats(53, n, -0.5f, 0.5f);
    Runs.Inputs inputs = new Runs.Inputs(x, w, bias);
    float[] expected = nan(b * n);
    Loops.denseRelu(b, k, n, x, w, bias, expected);
    float[] actual = nan(b * n);
    LoopsKernels.denseRelu(b, k, n, x, w, bias, actual);
    assertNoNaN(expected, "out");
    // the product is a GEMM leaf, bias and relu its epilogue: within the contraction bound
    float[] magnitude = nan(b * n);
    Loops.denseRelu(b, k, n, Agreement.abs(x), Agreement.abs(w), Agreement.abs(bias), magnitude);
    Agreement.assertWithinContraction(expected, actual, magnitude, k);
    inputs.assertUnchanged();
  }

  /** The @Reduce output starts at 2.5 in both runs (a reduction adds onto it); NaN would swallow the sum. */
  @ParameterizedTest(name = "N={0}")
  @MethodSource("dev.kiln.tests.fusion.Runs#lengths")
  void sumSquares(int n) {
    float[] exact = Data.integral(54, n, 16);
    Runs.Inputs inputs = new Runs.Inputs(exact);
    float[] expected = {2.5f};
    Loops.sumSquares(n, exact, expected);
    float[] actual = {2.5f};
    LoopsKernels.sumSquares(n, exact, actual);
    Agreement.assertSame(expected, actual);

    float[] x = Data.floats(55, n, -2f, 2f);
    float[] squares = new float[n + 1];
    squares[n] = 2.5f;
    for (int i = 0; i < n; i++) {
      squares[i] = x[i] * x[i];
    }
    expected[0] = 2.5f;
    Loops.sumSquares(n, x, expected);
    actual[0] = 2.5f;
    LoopsKernels.sumSquares(n, x, actual);
    Agreement.assertClose(expected, actual, 0, Agreement.sumTolerance(squares));
    inputs.assertUnchanged();
  }

  @ParameterizedTest(name = "N={0}")
  @MethodSource("dev.kiln.tests.fusion.Runs#lengths")
  void stencilCheap(int n) {
    float[] x = Data.floats(56, n, -3f, 3f);
    Runs.Inputs inputs = new Runs.Inputs(x);
    float[] expected = nan(n);
    Loops.stencilCheap(n, x, expected);
    float[] actual = nan(n);
    LoopsKernels.stencilCheap(n, x, actual);
    assertNoNaN(expected, "out");
    Agreement.assertSame(expected, actual);
    inputs.assertUnchanged();
  }

  @ParameterizedTest(name = "N={0}")
  @MethodSource("dev.kiln.tests.fusion.Runs#lengths")
  void stencilCostly(int n) {
    float[] x = Data.floats(57, n, -3f, 3f);
    Runs.Inputs inputs = new Runs.Inputs(x);
    float[] expected = nan(n);
    Loops.stencilCostly(n, x, expected);
    float[] actual = nan(n);
    LoopsKernels.stencilCostly(n, x, actual);
    assertNoNaN(expected, "out");
    Agreement.assertSame(expected, actual);
    inputs.assertUnchanged();
  }

  @ParameterizedTest(name = "M={0}, K={1}")
  @MethodSource("dev.kiln.tests.fusion.Runs#rows")
  void stencilMatvec(int m, int k) {
    float[] a = Data.floats(58, m * k);
    float[] x = Data.floats(59, k);
    Runs.Inputs inputs = new Runs.Inputs(a, x);
    float[] expected = nan(m);
    Loops.stencilMatvec(m, k, a, x, expected);
    float[] actual = nan(m);
    LoopsKernels.stencilMatvec(m, k, a, x, actual);
    assertNoNaN(expected, "out");
    // the matrix-vector product is a GEMM leaf; the blur passes its rounding on with gain 1
    Agreement.assertWithinContraction(expected, actual, Agreement.matvecMagnitude(m, k, a, x, 1f, m), k);
    inputs.assertUnchanged();
  }

  @ParameterizedTest(name = "B={0}, N={1}")
  @MethodSource("dev.kiln.tests.fusion.Runs#rows")
  void rowNormalizeD(int b, int n) {
    double[] x = Data.doubles(60, b * n, -3.0, 3.0);
    Runs.Inputs inputs = new Runs.Inputs(x);
    double[] expected = Runs.nanDoubles(b * n);
    Loops.rowNormalizeD(b, n, x, 1e-12, expected);
    double[] actual = Runs.nanDoubles(b * n);
    LoopsKernels.rowNormalizeD(b, n, x, 1e-12, actual);
    assertNoNaN(expected, "y");
    Agreement.assertSame(expected, actual);
    inputs.assertUnchanged();
  }

  @ParameterizedTest(name = "M={0}, K={1}")
  @MethodSource("dev.kiln.tests.fusion.Runs#rows")
  void costlyMatvec(int m, int k) {
    float[] a = Data.floats(61, m * k);
    float[] x0 = Data.floats(62, k, -2f, 2f);
    Runs.Inputs inputs = new Runs.Inputs(a, x0);
    float[] expected = nan(m);
    Loops.costlyMatvec(m, k, a, x0, expected);
    float[] actual = nan(m);
    LoopsKernels.costlyMatvec(m, k, a, x0, actual);
    assertNoNaN(expected, "out");
    // the matrix-vector product is a GEMM leaf over the (exactly computed) costly map
    float[] x = nan(k);
    Prims.costlyMap(k, x0, x);
    float[] magnitude = nan(m);
    Prims.matvec(m, k, Agreement.abs(a), Agreement.abs(x), magnitude);
    Agreement.assertWithinContraction(expected, actual, magnitude, k);
    inputs.assertUnchanged();
  }
}
