package dev.kiln.tests.fusion;

import static dev.kiln.tests.fusion.Runs.assertNoNaN;
import static dev.kiln.tests.fusion.Runs.nan;

import dev.kiln.testing.Agreement;
import dev.kiln.tests.Data;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The composites of {@link Graphs}, fused against plain Java. Tolerance: none, for the reason given
 * in {@link CompositesTest}.
 */
class GraphsTest {
  @ParameterizedTest(name = "N={0}")
  @MethodSource("dev.kiln.tests.fusion.Runs#lengths")
  void diamond(int n) {
    float[] x = Data.floats(11, n, -3f, 3f);
    Runs.Inputs inputs = new Runs.Inputs(x);
    float[] expected = nan(n);
    Graphs.diamond(n, x, expected);
    float[] actual = nan(n);
    GraphsKernels.diamond(n, x, actual);
    assertNoNaN(expected, "out");
    Agreement.assertSame(expected, actual);
    inputs.assertUnchanged();
  }

  @ParameterizedTest(name = "B={0}, K={1}, N={2}")
  @MethodSource("dev.kiln.tests.fusion.Runs#products")
  void matmulDiamond(int b, int k, int n) {
    float[] x = Data.floats(12, b * k);
    float[] w = Data.floats(13, k * n);
    Runs.Inputs inputs = new Runs.Inputs(x, w);
    float[] expected = nan(b * n);
    Graphs.matmulDiamond(b, k, n, x, w, expected);
    float[] actual = nan(b * n);
    GraphsKernels.matmulDiamond(b, k, n, x, w, actual);
    assertNoNaN(expected, "out");
    // the product is a GEMM leaf: within its bound, through tanh + sigmoid (Lipschitz 1 + 1/4)
    float[] magnitude = nan(b * n);
    Prims.matmul(b, k, n, Agreement.abs(x), Agreement.abs(w), magnitude);
    for (int i = 0; i < magnitude.length; i++) {
      magnitude[i] *= 1.25f;
    }
    Agreement.assertWithinContraction(expected, actual, magnitude, k);
    inputs.assertUnchanged();
  }

  @ParameterizedTest(name = "B={0}, N={1}")
  @MethodSource("dev.kiln.tests.fusion.Runs#rows")
  void rowDiamond(int b, int n) {
    float[] x = Data.floats(14, b * n, -2f, 2f);
    Runs.Inputs inputs = new Runs.Inputs(x);
    float[] expected = nan(b * n);
    Graphs.rowDiamond(b, n, x, expected);
    float[] actual = nan(b * n);
    GraphsKernels.rowDiamond(b, n, x, actual);
    assertNoNaN(expected, "out");
    Agreement.assertSame(expected, actual);
    inputs.assertUnchanged();
  }

  @ParameterizedTest(name = "M={0}, K={1}")
  @MethodSource("dev.kiln.tests.fusion.Runs#rows")
  void stencilDiamond(int m, int k) {
    float[] a = Data.floats(15, m * k);
    float[] x = Data.floats(16, k);
    Runs.Inputs inputs = new Runs.Inputs(a, x);
    float[] expected = nan(m);
    Graphs.stencilDiamond(m, k, a, x, expected);
    float[] actual = nan(m);
    GraphsKernels.stencilDiamond(m, k, a, x, actual);
    assertNoNaN(expected, "out");
    // the matrix-vector product is a GEMM leaf; tanh and the blur pass its rounding on with gain <= 2
    Agreement.assertWithinContraction(expected, actual, Agreement.matvecMagnitude(m, k, a, x, 2f, m), k);
    inputs.assertUnchanged();
  }

  @ParameterizedTest(name = "N={0}")
  @MethodSource("dev.kiln.tests.fusion.Runs#lengths")
  void twoDiamonds(int n) {
    float[] x = Data.floats(17, n, -3f, 3f);
    Runs.Inputs inputs = new Runs.Inputs(x);
    float[] expected = nan(n);
    Graphs.twoDiamonds(n, x, expected);
    float[] actual = nan(n);
    GraphsKernels.twoDiamonds(n, x, actual);
    assertNoNaN(expected, "out");
    Agreement.assertSame(expected, actual);
    inputs.assertUnchanged();
  }

  @ParameterizedTest(name = "B={0}, N={1}")
  @MethodSource("dev.kiln.tests.fusion.Runs#rows")
  void tanhSoftmax(int b, int n) {
    float[] x = Data.floats(18, b * n, -3f, 3f);
    Runs.Inputs inputs = new Runs.Inputs(x);
    float[] expected = nan(b * n);
    Graphs.tanhSoftmax(b, n, x, expected);
    float[] actual = nan(b * n);
    GraphsKernels.tanhSoftmax(b, n, x, actual);
    assertNoNaN(expected, "y");
    Agreement.assertSame(expected, actual);
    inputs.assertUnchanged();
  }

  @ParameterizedTest(name = "N={0}")
  @MethodSource("dev.kiln.tests.fusion.Runs#lengths")
  void scaleShift(int n) {
    float[] x = Data.floats(19, n, -10f, 10f);
    Runs.Inputs inputs = new Runs.Inputs(x);
    for (float[] ab : new float[][] {{1.5f, -0.25f}, {0f, 3f}, {-2f, 0f}}) {
      float[] expected = nan(n);
      Graphs.scaleShift(n, x, ab[0], ab[1], expected);
      float[] actual = nan(n);
      GraphsKernels.scaleShift(n, x, ab[0], ab[1], actual);
      assertNoNaN(expected, "out");
      Agreement.assertSame(expected, actual);
    }
    inputs.assertUnchanged();
  }

  @ParameterizedTest(name = "N={0}")
  @MethodSource("dev.kiln.tests.fusion.Runs#lengths")
  void scaleShiftTanh(int n) {
    float[] x = Data.floats(20, n, -3f, 3f);
    Runs.Inputs inputs = new Runs.Inputs(x);
    for (float alpha : new float[] {0.7f, -1.25f}) {
      float[] expected = nan(n);
      Graphs.scaleShiftTanh(n, x, alpha, expected);
      float[] actual = nan(n);
      GraphsKernels.scaleShiftTanh(n, x, alpha, actual);
      assertNoNaN(expected, "out");
      Agreement.assertSame(expected, actual);
    }
    inputs.assertUnchanged();
  }

  @ParameterizedTest(name = "N={0}")
  @MethodSource("dev.kiln.tests.fusion.Runs#lengths")
  void scaleByInt(int n) {
    float[] x = Data.floats(23, n, -3f, 3f);
    Runs.Inputs inputs = new Runs.Inputs(x);
    for (int k : new int[] {3, -7, 16_777_217}) {
      float[] expected = nan(n);
      Graphs.scaleByInt(n, x, k, expected);
      float[] actual = nan(n);
      GraphsKernels.scaleByInt(n, x, k, actual);
      assertNoNaN(expected, "out");
      Agreement.assertSame(expected, actual);
    }
    inputs.assertUnchanged();
  }

  @ParameterizedTest(name = "N={0}")
  @MethodSource("dev.kiln.tests.fusion.Runs#lengths")
  void readBack(int n) {
    float[] x = Data.floats(21, n, -3f, 3f);
    Runs.Inputs inputs = new Runs.Inputs(x);
    float[] yExpected = nan(n);
    float[] zExpected = nan(n);
    Graphs.readBack(n, x, yExpected, zExpected);
    float[] yActual = nan(n);
    float[] zActual = nan(n);
    GraphsKernels.readBack(n, x, yActual, zActual);
    assertNoNaN(yExpected, "y");
    assertNoNaN(zExpected, "z");
    Agreement.assertSame(yExpected, yActual);
    Agreement.assertSame(zExpected, zActual);
    inputs.assertUnchanged();
  }

  @ParameterizedTest(name = "B={0}, N={1}")
  @MethodSource("dev.kiln.tests.fusion.Runs#rows")
  void expRowSum(int b, int n) {
    float[] x = Data.floats(22, b * n, -2f, 2f);
    Runs.Inputs inputs = new Runs.Inputs(x);
    float[] eExpected = nan(b * n);
    float[] sExpected = nan(b);
    Graphs.expRowSum(b, n, x, eExpected, sExpected);
    float[] eActual = nan(b * n);
    float[] sActual = nan(b);
    GraphsKernels.expRowSum(b, n, x, eActual, sActual);
    assertNoNaN(eExpected, "e");
    assertNoNaN(sExpected, "s");
    Agreement.assertSame(eExpected, eActual);
    Agreement.assertSame(sExpected, sActual);
    inputs.assertUnchanged();
  }

  @ParameterizedTest(name = "N={0}")
  @MethodSource("dev.kiln.tests.fusion.Runs#lengths")
  void interleaved(int n) {
    int m = n / 2 + 3;
    float[] x = Data.floats(23, n, -2f, 2f);
    float[] y = Data.floats(24, m, -2f, 2f);
    Runs.Inputs inputs = new Runs.Inputs(x, y);
    float[][] expected = {nan(n), nan(m), nan(n), nan(m)};
    Graphs.interleaved(n, m, x, y, expected[0], expected[1], expected[2], expected[3]);
    float[][] actual = {nan(n), nan(m), nan(n), nan(m)};
    GraphsKernels.interleaved(n, m, x, y, actual[0], actual[1], actual[2], actual[3]);
    for (int k = 0; k < 4; k++) {
      assertNoNaN(expected[k], "output " + k);
      Agreement.assertSame(expected[k], actual[k]);
    }
    inputs.assertUnchanged();
  }
}
