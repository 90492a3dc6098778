package dev.kiln.tests.fusion;

import static dev.kiln.tests.fusion.Runs.assertNoNaN;
import static dev.kiln.tests.fusion.Runs.nan;

import dev.kiln.testing.Agreement;
import dev.kiln.tests.Data;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The composites of {@link Layouts}, fused against plain Java. Tolerance: none, for the reason given
 * in {@link CompositesTest}.
 */
class LayoutsTest {
  @ParameterizedTest(name = "B={0}, N={1}")
  @MethodSource("dev.kiln.tests.fusion.Runs#rows")
  void biasScale(int b, int n) {
    float[] x = Data.floats(31, b * n);
    float[] bias = Data.floats(32, n);
    float[] scale = Data.floats(33, b, -2f, 2f);
    Runs.Inputs inputs = new Runs.Inputs(x, bias, scale);
    float[] expected = nan(b * n);
    Layouts.biasScale(b, n, x, bias, scale, expected);
    float[] actual = nan(b * n);
    LayoutsKernels.biasScale(b, n, x, bias, scale, actual);
    assertNoNaN(expected, "out");
    Agreement.assertSame(expected, actual);
    inputs.assertUnchanged();
  }

  @ParameterizedTest(name = "B={0}, N={1}")
  @MethodSource("dev.kiln.tests.fusion.Runs#rows")
  void gatedBias(int b, int n) {
    float[] x = Data.floats(34, b * n);
    float[] gate = Data.floats(35, n, -4f, 4f);
    Runs.Inputs inputs = new Runs.Inputs(x, gate);
    float[] expected = nan(b * n);
    Layouts.gatedBias(b, n, x, gate, expected);
    float[] actual = nan(b * n);
    LayoutsKernels.gatedBias(b, n, x, gate, actual);
    assertNoNaN(expected, "out");
    Agreement.assertSame(expected, actual);
    inputs.assertUnchanged();
  }

  @ParameterizedTest(name = "R={0}, C={1}")
  @MethodSource("dev.kiln.tests.fusion.Runs#rows")
  void transposeBias(int r, int c) {
    float[] x = Data.floats(36, r * c, -2f, 2f);
    float[] bias = Data.floats(37, r);
    Runs.Inputs inputs = new Runs.Inputs(x, bias);
    float[] expected = nan(c * r);
    Layouts.transposeBias(r, c, x, bias, expected);
    float[] actual = nan(c * r);
    LayoutsKernels.transposeBias(r, c, x, bias, actual);
    assertNoNaN(expected, "out");
    Agreement.assertSame(expected, actual);
    inputs.assertUnchanged();
  }

  @ParameterizedTest(name = "B={0}, H={1}")
  @MethodSource("dev.kiln.tests.fusion.Runs#rows")
  void flatRoundTrip(int b, int h) {
    float[] x = Data.floats(38, b * h, -2f, 2f);
    float[] bias = Data.floats(39, h);
    Runs.Inputs inputs = new Runs.Inputs(x, bias);
    float[] expected = nan(b * h);
    Layouts.flatRoundTrip(b, h, x, bias, expected);
    float[] actual = nan(b * h);
    LayoutsKernels.flatRoundTrip(b, h, x, bias, actual);
    assertNoNaN(expected, "out");
    Agreement.assertSame(expected, actual);
    inputs.assertUnchanged();
  }

  @ParameterizedTest(name = "B={0}, H={1}")
  @MethodSource("dev.kiln.tests.fusion.Runs#rows")
  void flatToRows(int b, int h) {
    float[] x = Data.floats(40, b * h, -4f, 4f);
    Runs.Inputs inputs = new Runs.Inputs(x);
    float[] expected = nan(b);
    Layouts.flatToRows(b, h, x, expected);
    float[] actual = nan(b);
    LayoutsKernels.flatToRows(b, h, x, actual);
    assertNoNaN(expected, "out");
    Agreement.assertSame(expected, actual);
    inputs.assertUnchanged();
  }

  @ParameterizedTest(name = "B={0}, H={1}")
  @MethodSource("dev.kiln.tests.fusion.Runs#rows")
  void reshapeRows(int b, int h) {
    float[] x = Data.floats(41, b * 2 * h, -2f, 2f);
    Runs.Inputs inputs = new Runs.Inputs(x);
    float[] expected = nan(2 * b);
    Layouts.reshapeRows(b, h, x, expected);
    float[] actual = nan(2 * b);
    LayoutsKernels.reshapeRows(b, h, x, actual);
    assertNoNaN(expected, "out");
    Agreement.assertSame(expected, actual);
    inputs.assertUnchanged();
  }
}
