package dev.kiln.tests.fusion;

import static dev.kiln.tests.fusion.Runs.assertNoNaN;
import static dev.kiln.tests.fusion.Runs.nan;

import dev.kiln.testing.Agreement;
import dev.kiln.tests.Data;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The composites of {@link Composites}: the fused launcher ({@code CompositesKernels}) against the
 * composite run as plain Java, call by call.
 *
 * <p>Tolerance: none ({@link Agreement#assertSame}). A fused CPU kernel evaluates the very float
 * operations of the plain-Java calls, in the same order, with the same {@code KMath} methods on the
 * same JVM (Java float arithmetic is strict and never contracted to fused multiply-add); fusion only
 * changes where intermediate values live (a local, an inline recomputation, or an array). So the
 * results are bit-identical and any difference is a fusion bug. (On CUDA, expf/tanhf differ by a few
 * ulp, which is why the operator tests elsewhere allow 1e-6.)
 */
class CompositesTest {
  @ParameterizedTest(name = "B={0}, H={1}")
  @MethodSource("dev.kiln.tests.fusion.Runs#rows")
  void lstmCell(int b, int h) {
    float[] gates = Data.floats(1, b * 4 * h, -4f, 4f);
    float[] c = Data.floats(2, b * h, -2f, 2f);
    Runs.Inputs inputs = new Runs.Inputs(gates, c);
    float[] cExpected = nan(b * h);
    float[] hExpected = nan(b * h);
    Composites.lstmCell(b, h, gates, c, 0.75f, cExpected, hExpected);
    float[] cActual = nan(b * h);
    float[] hActual = nan(b * h);
    CompositesKernels.lstmCell(b, h, gates, c, 0.75f, cActual, hActual);
    assertNoNaN(cExpected, "cNext");
    assertNoNaN(hExpected, "hNext");
    Agreement.assertSame(cExpected, cActual);
    Agreement.assertSame(hExpected, hActual);
    inputs.assertUnchanged();
  }

  @ParameterizedTest(name = "B={0}, H={1}")
  @MethodSource("dev.kiln.tests.fusion.Runs#rows")
  void dimArguments(int b, int h) {
    float[] x = Data.floats(11, b * 2 * h);
    float[] z = Data.floats(12, b * 4 * h);
    Runs.Inputs inputs = new Runs.Inputs(x, z);
    float[] expected = nan(b * h);
    Composites.dimArguments(b, h, x, z, expected);
    float[] actual = nan(b * h);
    CompositesKernels.dimArguments(b, h, x, z, actual);
    assertNoNaN(expected, "out");
    Agreement.assertSame(expected, actual);
    inputs.assertUnchanged();
  }

  @ParameterizedTest(name = "N={0}")
  @MethodSource("dev.kiln.tests.fusion.Runs#lengths")
  void ovl(int n) {
    float[] x = Data.floats(3, 2 * n);
    float[] y = Data.floats(4, n);
    Runs.Inputs inputs = new Runs.Inputs(x, y);
    float[] expected = nan(2 * n);
    Composites.ovl(n, x, y, expected);
    float[] actual = nan(2 * n);
    CompositesKernels.ovl(n, x, y, actual);
    assertNoNaN(expected, "out");
    Agreement.assertSame(expected, actual);
    inputs.assertUnchanged();
  }

  @ParameterizedTest(name = "B={0}, N={1}")
  @MethodSource("dev.kiln.tests.fusion.Runs#rows")
  void softmax(int b, int n) {
    float[] x = Data.floats(5, b * n, -6f, 6f);
    Runs.Inputs inputs = new Runs.Inputs(x);
    float[] expected = nan(b * n);
    Composites.softmax(b, n, x, expected);
    float[] actual = nan(b * n);
    CompositesKernels.softmax(b, n, x, actual);
    assertNoNaN(expected, "y");
    Agreement.assertSame(expected, actual);
    inputs.assertUnchanged();
  }

  @ParameterizedTest(name = "B={0}, N={1}")
  @MethodSource("dev.kiln.tests.fusion.Runs#rows")
  void layerNorm(int b, int n) {
    float[] x = Data.floats(6, b * n, -3f, 3f);
    float[] gamma = Data.floats(7, n, 0.5f, 1.5f);
    float[] beta = Data.floats(8, n);
    Runs.Inputs inputs = new Runs.Inputs(x, gamma, beta);
    float[] expected = nan(b * n);
    Composites.layerNorm(b, n, x, gamma, beta, 1e-5f, expected);
    float[] actual = nan(b * n);
    CompositesKernels.layerNorm(b, n, x, gamma, beta, 1e-5f, actual);
    assertNoNaN(expected, "y");
    Agreement.assertSame(expected, actual);
    inputs.assertUnchanged();
  }
}
