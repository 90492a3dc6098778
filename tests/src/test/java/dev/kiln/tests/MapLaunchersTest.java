package dev.kiln.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.kiln.testing.Agreement;
import dev.kiln.tests.ops.Activations;
import dev.kiln.tests.ops.ActivationsKernels;
import dev.kiln.tests.ops.Lstm;
import dev.kiln.tests.ops.LstmKernels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The array launchers of elementwise operators: {@code f(float[] a, float[] b, float[] out)} maps
 * {@code f} over {@code out}'s length; an input of length 1 is broadcast; for operators with at
 * most three parameters any input may also be a plain scalar. Each element must be exactly what the
 * scalar source gives.
 */
class MapLaunchersTest {
  /** Lengths: empty, one, odd, and large enough to be split into chunks. */
  @ParameterizedTest
  @ValueSource(ints = {0, 1, 7, 1000, 100_003})
  void unaryFloat(int n) {
    float[] x = Data.floats(21, n, -8f, 8f);
    float[] original = x.clone();
    checkUnary(x, Activations::sigmoid, ActivationsKernels::sigmoid);
    checkUnary(x, Activations::tanh, ActivationsKernels::tanh);
    checkUnary(x, Activations::relu, ActivationsKernels::relu);
    checkUnary(x, Activations::gelu, ActivationsKernels::gelu);
    checkUnary(x, Activations::geluTanh, ActivationsKernels::geluTanh);
    checkUnary(x, Activations::swish, ActivationsKernels::swish);
    checkUnary(x, Activations::softsign, ActivationsKernels::softsign);
    checkUnary(x, Lstm::sigmoid, LstmKernels::sigmoid);
    assertArrayEquals(original, x, "a launcher modified its input");
  }

  @Test
  void unaryFloatOnSpecialValues() {
    checkUnary(Data.specialFloats(), Activations::gelu, ActivationsKernels::gelu);
    checkUnary(Data.specialFloats(), Activations::sigmoid, ActivationsKernels::sigmoid);
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 7, 100_003})
  void unaryDouble(int n) {
    double[] x = Data.doubles(22, n, -40.0, 40.0);
    double[] expected = new double[n];
    for (int i = 0; i < n; i++) {
      expected[i] = Activations.softplus(x[i]);
    }
    double[] out = Data.filledDoubles(n, Double.NaN);
    ActivationsKernels.softplus(x, out);
    Agreement.assertSame(expected, out);
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 7, 100_003})
  void binaryFloat(int n) {
    float[] x = Data.floats(23, n, -8f, 8f);
    float[] slope = Data.floats(24, n, 0f, 0.5f);
    float[] expected = new float[n];
    for (int i = 0; i < n; i++) {
      expected[i] = Activations.leakyRelu(x[i], slope[i]);
    }
    float[] out = Data.filled(n, Float.NaN);
    ActivationsKernels.leakyRelu(x, slope, out);
    Agreement.assertSame(expected, out);
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 7, 100_003})
  void ternaryFloat(int n) {
    float[] x = Data.floats(25, n, -8f, 8f);
    float[] lo = Data.floats(26, n, -4f, 0f);
    float[] hi = Data.floats(27, n, 0f, 4f);
    float[] expected = new float[n];
    for (int i = 0; i < n; i++) {
      expected[i] = Activations.clamp(x[i], lo[i], hi[i]);
    }
    float[] out = Data.filled(n, Float.NaN);
    ActivationsKernels.clamp(x, lo, hi, out);
    Agreement.assertSame(expected, out);
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 7, 100_003})
  void binaryInt(int n) {
    int[] a = Data.anyInts(28, n);
    int[] m = Data.ints(29, n, 1, 1000);
    int[] expected = new int[n];
    for (int i = 0; i < n; i++) {
      expected[i] = Activations.floorMod(a[i], m[i]);
    }
    int[] out = new int[n];
    ActivationsKernels.floorMod(a, m, out);
    assertArrayEquals(expected, out);
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 7, 100_003})
  void broadcastLengthOneInputs(int n) {
    float[] x = Data.floats(30, n, -8f, 8f);
    float[] slope = {0.1f};
    float[] out = Data.filled(n, Float.NaN);
    ActivationsKernels.leakyRelu(x, slope, out);
    float[] expected = new float[n];
    for (int i = 0; i < n; i++) {
      expected[i] = Activations.leakyRelu(x[i], 0.1f);
    }
    Agreement.assertSame(expected, out);

    float[] one = {-2.5f};
    float[] slopes = Data.floats(31, n, 0f, 1f);
    out = Data.filled(n, Float.NaN);
    ActivationsKernels.leakyRelu(one, slopes, out);
    for (int i = 0; i < n; i++) {
      expected[i] = Activations.leakyRelu(-2.5f, slopes[i]);
    }
    Agreement.assertSame(expected, out);

    // Every input broadcast: out is filled with one value.
    out = Data.filled(n, Float.NaN);
    ActivationsKernels.clamp(new float[] {5f}, new float[] {-1f}, new float[] {1f}, out);
    Agreement.assertSame(Data.filled(n, Activations.clamp(5f, -1f, 1f)), out);
  }

  @Test
  void broadcastIntoLengthOneAndEmptyOutputs() {
    float[] out = {Float.NaN};
    ActivationsKernels.leakyRelu(new float[] {-3f}, new float[] {0.5f}, out);
    Agreement.assertSame(new float[] {Activations.leakyRelu(-3f, 0.5f)}, out);

    float[] empty = new float[0];
    ActivationsKernels.leakyRelu(new float[] {-3f}, new float[0], empty);
    ActivationsKernels.gelu(new float[0], empty);
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 7, 100_003})
  void mixedScalarOverloads(int n) {
    float[] x = Data.floats(32, n, -8f, 8f);
    float[] v = Data.floats(33, n, -2f, 2f);
    float[] expected = new float[n];

    float[] out = Data.filled(n, Float.NaN);
    ActivationsKernels.leakyRelu(x, 0.2f, out);
    for (int i = 0; i < n; i++) {
      expected[i] = Activations.leakyRelu(x[i], 0.2f);
    }
    Agreement.assertSame(expected, out);

    out = Data.filled(n, Float.NaN);
    ActivationsKernels.leakyRelu(-1.5f, v, out);
    for (int i = 0; i < n; i++) {
      expected[i] = Activations.leakyRelu(-1.5f, v[i]);
    }
    Agreement.assertSame(expected, out);

    out = Data.filled(n, Float.NaN);
    ActivationsKernels.clamp(x, -1f, 1f, out);
    for (int i = 0; i < n; i++) {
      expected[i] = Activations.clamp(x[i], -1f, 1f);
    }
    Agreement.assertSame(expected, out);

    out = Data.filled(n, Float.NaN);
    ActivationsKernels.clamp(x, v, 1f, out);
    for (int i = 0; i < n; i++) {
      expected[i] = Activations.clamp(x[i], v[i], 1f);
    }
    Agreement.assertSame(expected, out);

    out = Data.filled(n, Float.NaN);
    ActivationsKernels.clamp(0.5f, v, x, out);
    for (int i = 0; i < n; i++) {
      expected[i] = Activations.clamp(0.5f, v[i], x[i]);
    }
    Agreement.assertSame(expected, out);

    int[] a = Data.anyInts(34, n);
    int[] outInt = new int[n];
    ActivationsKernels.floorMod(a, 97, outInt);
    int[] expectedInt = new int[n];
    for (int i = 0; i < n; i++) {
      expectedInt[i] = Activations.floorMod(a[i], 97);
    }
    assertArrayEquals(expectedInt, outInt);
  }

  @Test
  void rejectsBadLengths() {
    Errors.assertRejects("gelu", "x", () -> ActivationsKernels.gelu(new float[3], new float[4]));
    Errors.assertRejects("gelu", "x", () -> ActivationsKernels.gelu(new float[3], new float[1]));
    Errors.assertRejects("gelu", "x", () -> ActivationsKernels.gelu(new float[2], new float[0]));
    Errors.assertRejects(
        "leakyRelu",
        "slope",
        () -> ActivationsKernels.leakyRelu(new float[5], new float[4], new float[5]));
    Errors.assertRejects(
        "leakyRelu", "x", () -> ActivationsKernels.leakyRelu(new float[6], 0.1f, new float[5]));
    Errors.assertRejects(
        "clamp",
        "hi",
        () -> ActivationsKernels.clamp(new float[5], new float[1], new float[2], new float[5]));
    Errors.assertRejects(
        "softplus", "x", () -> ActivationsKernels.softplus(new double[2], new double[3]));
    Errors.assertRejects(
        "floorMod", "m", () -> ActivationsKernels.floorMod(new int[3], new int[2], new int[3]));
  }

  @Test
  void rejectsNullArrays() {
    Errors.assertRejects("gelu", "x", () -> ActivationsKernels.gelu(null, new float[4]));
    Errors.assertRejects("gelu", "out", () -> ActivationsKernels.gelu(new float[4], null));
    Errors.assertRejects(
        "leakyRelu",
        "slope",
        () -> ActivationsKernels.leakyRelu(new float[5], (float[]) null, new float[5]));
    Errors.assertRejects(
        "clamp", "lo", () -> ActivationsKernels.clamp(new float[5], null, 1f, new float[5]));
  }

  @Test
  void badArgumentsLeaveTheOutputUntouched() {
    float[] out = Data.filled(5, Float.NaN);
    Errors.assertRejects(
        "leakyRelu", "slope", () -> ActivationsKernels.leakyRelu(new float[5], new float[3], out));
    Agreement.assertSame(Data.filled(5, Float.NaN), out);
  }

  interface F1 {
    float apply(float x);
  }

  interface Map1 {
    void apply(float[] x, float[] out);
  }

  private static void checkUnary(float[] x, F1 plain, Map1 launcher) {
    float[] expected = new float[x.length];
    for (int i = 0; i < x.length; i++) {
      expected[i] = plain.apply(x[i]);
    }
    float[] out = Data.filled(x.length, Float.NaN);
    launcher.apply(x, out);
    Agreement.assertSame(expected, out);
  }
}
