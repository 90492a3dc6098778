package dev.kiln.lib;

import dev.kiln.testing.Agreement;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every {@link Elementwise} operator, its source against its generated CPU kernel: the same float
 * operations per element, so the results must be identical, special values (NaN, infinities,
 * signed zeros, overflowing exponents) included.
 */
class ElementwiseTest {
  /** The sizes every operator runs at: empty, one, odd, and large enough for several chunks. */
  private static final List<Integer> SIZES = List.of(0, 1, 7, 31, 1000, 100003);

  interface Unary {
    void run(int n, float[] x, float[] out);
  }

  interface Binary {
    void run(int n, float[] a, float[] b, float[] out);
  }

  interface WithScalar {
    void run(int n, float[] x, float s, float[] out);
  }

  static Stream<Arguments> unary() {
    return cases(
        Arguments.of("neg", (Unary) Elementwise::neg, (Unary) ElementwiseKernels::neg),
        Arguments.of("square", (Unary) Elementwise::square, (Unary) ElementwiseKernels::square),
        Arguments.of("exp", (Unary) Elementwise::exp, (Unary) ElementwiseKernels::exp),
        Arguments.of("tanh", (Unary) Elementwise::tanh, (Unary) ElementwiseKernels::tanh),
        Arguments.of("sigmoid", (Unary) Elementwise::sigmoid, (Unary) ElementwiseKernels::sigmoid),
        Arguments.of("relu", (Unary) Elementwise::relu, (Unary) ElementwiseKernels::relu),
        Arguments.of("copy", (Unary) Elementwise::copy, (Unary) ElementwiseKernels::copy));
  }

  static Stream<Arguments> binary() {
    return cases(
        Arguments.of("add", (Binary) Elementwise::add, (Binary) ElementwiseKernels::add),
        Arguments.of("sub", (Binary) Elementwise::sub, (Binary) ElementwiseKernels::sub),
        Arguments.of("mul", (Binary) Elementwise::mul, (Binary) ElementwiseKernels::mul),
        Arguments.of("div", (Binary) Elementwise::div, (Binary) ElementwiseKernels::div));
  }

  static Stream<Arguments> withScalar() {
    return cases(
        Arguments.of("scale", (WithScalar) Elementwise::scale, (WithScalar) ElementwiseKernels::scale),
        Arguments.of(
            "addScalar",
            (WithScalar) Elementwise::addScalar,
            (WithScalar) ElementwiseKernels::addScalar));
  }

  /** Each operator {@code (name, source, kernel)} at each size: {@code (name, N, source, kernel)}. */
  private static Stream<Arguments> cases(Arguments... operators) {
    return Stream.of(operators)
        .flatMap(
            op ->
                SIZES.stream()
                    .map(n -> Arguments.of(op.get()[0], n, op.get()[1], op.get()[2])));
  }

  @ParameterizedTest(name = "{0} N={1}")
  @MethodSource("unary")
  void unaryAgrees(String name, int n, Unary source, Unary kernel) {
    float[] x = Data.specialAndRandom(11, n);
    float[] xBefore = x.clone();
    float[] expected = Data.filled(n, Float.NaN);
    source.run(n, x, expected);
    float[] actual = Data.filled(n, Float.NaN);
    kernel.run(n, x, actual);
    Agreement.assertSame(expected, actual);
    Agreement.assertSame(xBefore, x);
  }

  @ParameterizedTest(name = "{0} N={1}")
  @MethodSource("binary")
  void binaryAgrees(String name, int n, Binary source, Binary kernel) {
    float[] a = Data.specialAndRandom(12, n);
    float[] b = Data.floats(13, n, -4f, 4f);
    float[] expected = Data.filled(n, Float.NaN);
    source.run(n, a, b, expected);
    float[] actual = Data.filled(n, Float.NaN);
    kernel.run(n, a, b, actual);
    Agreement.assertSame(expected, actual);
  }

  @ParameterizedTest(name = "{0} N={1}")
  @MethodSource("withScalar")
  void withScalarAgrees(String name, int n, WithScalar source, WithScalar kernel) {
    float[] x = Data.specialAndRandom(14, n);
    for (float s : new float[] {0f, -1.5f, 3e38f, Float.NaN}) {
      float[] expected = Data.filled(n, Float.NaN);
      source.run(n, x, s, expected);
      float[] actual = Data.filled(n, Float.NaN);
      kernel.run(n, x, s, actual);
      Agreement.assertSame(expected, actual);
    }
  }

  @ParameterizedTest(name = "dropout N={0}")
  @MethodSource("sizes")
  void dropoutAgreesAndItsGradientDrawsTheSameMask(int n) {
    float[] x = Data.specialAndRandom(15, n);
    for (float p : new float[] {0f, 0.25f, 0.9f}) {
      float[] expected = Data.filled(n, Float.NaN);
      Elementwise.dropout(n, p, 2026, x, expected);
      float[] actual = Data.filled(n, Float.NaN);
      ElementwiseKernels.dropout(n, p, 2026, x, actual);
      Agreement.assertSame(expected, actual);
      float[] dy = Data.floats(16, n, -1f, 1f);
      float[] dx = Data.filled(n, Float.NaN);
      ElementwiseKernels.dropoutGrad(n, p, 2026, x, actual, dy, dx);
      for (int i = 0; i < n; i++) {
        boolean dropped = dev.kiln.KRandom.uniform(2026, 0, i) < p;
        // (the derived gradient multiplies by the reciprocal 1 / (1 - p): an ulp of the result apart)
        float want = dropped ? 0f : dy[i] / (1f - p);
        org.junit.jupiter.api.Assertions.assertEquals(want, dx[i], Math.ulp(want) * 2,
            "dropoutGrad at " + i + " of " + n + ", p = " + p);
      }
    }
  }

  static Stream<Integer> sizes() {
    return SIZES.stream();
  }
}
