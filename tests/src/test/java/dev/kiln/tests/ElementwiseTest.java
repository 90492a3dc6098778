package dev.kiln.tests;

import static org.junit.jupiter.api.Assertions.fail;

import dev.kiln.tests.ops.Activations;
import dev.kiln.tests.ops.ActivationsKernels;
import dev.kiln.tests.ops.Lstm;
import dev.kiln.tests.ops.LstmKernels;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The generated scalar method of each elementwise operator computes exactly what the source
 * computes: the same bits (NaNs compared as NaN), on special values and on random ones.
 */
class ElementwiseTest {
  private static final float[] XS = Data.specialAndRandomFloats(11, 4000);
  private static final float[] PARAMS = {0f, -0f, 0.01f, 0.2f, 1f, -1f, 3f, Float.NaN};

  interface F1 {
    float apply(float x);
  }

  @Test
  void sigmoid() {
    assertSameFunction("sigmoid", Activations::sigmoid, ActivationsKernels::sigmoid);
  }

  @Test
  void tanh() {
    assertSameFunction("tanh", Activations::tanh, ActivationsKernels::tanh);
  }

  @Test
  void relu() {
    assertSameFunction("relu", Activations::relu, ActivationsKernels::relu);
  }

  @Test
  void gelu() {
    assertSameFunction("gelu", Activations::gelu, ActivationsKernels::gelu);
  }

  @Test
  void geluTanh() {
    assertSameFunction("geluTanh", Activations::geluTanh, ActivationsKernels::geluTanh);
  }

  @Test
  void swish() {
    assertSameFunction("swish", Activations::swish, ActivationsKernels::swish);
  }

  @Test
  void softsign() {
    assertSameFunction("softsign", Activations::softsign, ActivationsKernels::softsign);
  }

  /** Lstm's own sigmoid, which shadows KMath.sigmoid and rounds differently from it. */
  @Test
  void lstmSigmoid() {
    assertSameFunction("Lstm.sigmoid", Lstm::sigmoid, LstmKernels::sigmoid);
  }

  @Test
  void leakyRelu() {
    for (float slope : PARAMS) {
      for (float x : XS) {
        assertSameBits(
            "leakyRelu(" + x + ", " + slope + ")",
            Activations.leakyRelu(x, slope),
            ActivationsKernels.leakyRelu(x, slope));
      }
    }
  }

  @Test
  void clamp() {
    float[][] bounds = {
      {-1f, 1f}, {0f, 6f}, {-0f, 0f}, {2f, -2f}, {Float.NaN, 1f}, {-1f, Float.NaN}
    };
    for (float[] b : bounds) {
      for (float x : XS) {
        assertSameBits(
            "clamp(" + x + ", " + b[0] + ", " + b[1] + ")",
            Activations.clamp(x, b[0], b[1]),
            ActivationsKernels.clamp(x, b[0], b[1]));
      }
    }
  }

  @Test
  void softplus() {
    double[] xs = {
      0.0,
      -0.0,
      1e-300,
      -1e-300,
      19.999,
      20.0,
      20.001,
      -745.2,
      -800.0,
      709.0,
      710.0,
      Double.MAX_VALUE,
      -Double.MAX_VALUE,
      Double.POSITIVE_INFINITY,
      Double.NEGATIVE_INFINITY,
      Double.NaN
    };
    for (double x : xs) {
      assertSameBits(
          "softplus(" + x + ")", Activations.softplus(x), ActivationsKernels.softplus(x));
    }
    for (double x : Data.doubles(12, 4000, -50.0, 50.0)) {
      assertSameBits(
          "softplus(" + x + ")", Activations.softplus(x), ActivationsKernels.softplus(x));
    }
  }

  @Test
  void floorMod() {
    int[] as = {0, 1, -1, 7, -7, Integer.MAX_VALUE, Integer.MIN_VALUE, Integer.MIN_VALUE + 1};
    int[] ms = {1, -1, 2, 3, -3, 1000, Integer.MAX_VALUE, Integer.MIN_VALUE};
    for (int m : ms) {
      for (int a : as) {
        assertSameInt(
            "floorMod(" + a + ", " + m + ")",
            Activations.floorMod(a, m),
            ActivationsKernels.floorMod(a, m));
      }
    }
    SplittableRandom random = new SplittableRandom(13);
    for (int t = 0; t < 4000; t++) {
      int a = random.nextInt();
      int m = random.nextInt(1, 1000) * (random.nextBoolean() ? 1 : -1);
      assertSameInt(
          "floorMod(" + a + ", " + m + ")",
          Activations.floorMod(a, m),
          ActivationsKernels.floorMod(a, m));
    }
  }

  @Test
  void select() {
    for (float x : XS) {
      assertSameBits(
          "select(true, ...)",
          Activations.select(true, x, -x),
          ActivationsKernels.select(true, x, -x));
      assertSameBits(
          "select(false, ...)",
          Activations.select(false, x, -x),
          ActivationsKernels.select(false, x, -x));
    }
  }

  @Test
  void mulAddLong() {
    SplittableRandom random = new SplittableRandom(14);
    for (int t = 0; t < 4000; t++) {
      long a = t < 2000 ? random.nextLong() : random.nextInt(-100_000, 100_000);
      long b = t < 2000 ? random.nextLong() : random.nextInt(-100_000, 100_000);
      int c = random.nextInt();
      long expected = Activations.mulAddLong(a, b, c);
      long actual = ActivationsKernels.mulAddLong(a, b, c);
      if (expected != actual) {
        fail(
            "mulAddLong("
                + a
                + ", "
                + b
                + ", "
                + c
                + "): expected "
                + expected
                + " but was "
                + actual);
      }
    }
  }

  private static void assertSameFunction(String name, F1 plain, F1 kernel) {
    for (float x : XS) {
      assertSameBits(name + "(" + x + ")", plain.apply(x), kernel.apply(x));
    }
  }

  static void assertSameBits(String call, float expected, float actual) {
    if (Float.floatToIntBits(expected) != Float.floatToIntBits(actual)) {
      fail(call + ": expected " + expected + " but was " + actual);
    }
  }

  static void assertSameBits(String call, double expected, double actual) {
    if (Double.doubleToLongBits(expected) != Double.doubleToLongBits(actual)) {
      fail(call + ": expected " + expected + " but was " + actual);
    }
  }

  private static void assertSameInt(String call, int expected, int actual) {
    if (expected != actual) {
      fail(call + ": expected " + expected + " but was " + actual);
    }
  }
}
