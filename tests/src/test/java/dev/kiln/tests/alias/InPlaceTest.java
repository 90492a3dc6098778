package dev.kiln.tests.alias;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Launchers called with an output that is also an input: refused with a message naming the
 * operator and both arguments, except where the compiler proved the operator safe in place, and
 * then the same result as the plain method called the same way.
 */
class InPlaceTest {
  private static float[] data() {
    return new float[] {1, 2, 3, 4, 5, 6, 7};
  }

  @Test
  void anOperatorReadingOnlyTheElementItWritesRunsInPlace() {
    float[] expected = data();
    InPlaceOps.scale(expected.length, expected, 3f, expected);
    float[] actual = data();
    InPlaceOpsKernels.scale(actual.length, actual, 3f, actual);
    assertArrayEquals(expected, actual);
  }

  /**
   * Long enough that the SIMD form starts its vectors on a boundary ({@code Alignment}): the
   * iterations before it must not be computed twice, since the second would read the first's
   * output. Each length and each chunk start puts the boundary elsewhere.
   */
  @Test
  void anOperatorInPlaceOverALongArrayComputesEachElementOnce() {
    for (int n : new int[] {999, 1000, 4096, 100_003}) {
      agreeInPlace(n, dev.kiln.tests.Data.floats(n, n, -2f, 2f), a -> InPlaceOps.scale(n, a, 3f, a),
          a -> InPlaceOpsKernels.scale(n, a, 3f, a), (lo, hi, a) -> InPlaceOpsSimdKernels.scale(lo, hi, n, a, 3f, a));
    }
  }

  /**
   * A kernel whose SIMD form runs in stages over blocks of a row, in place: each stage must read x
   * before the last one stores y over it, and the tail of each block (fewer than a vector) as the
   * scalar kernel.
   */
  @Test
  void anOperatorInStagesRunsInPlace() {
    if (dev.kiln.runtime.simd.Simd.ENABLED) {
      assertTrue(java.util.Arrays.stream(InPlaceOpsSimdKernels.class.getDeclaredMethods())
          .anyMatch(m -> m.getName().equals("gatedTanh$stage1")), "the SIMD form is not in stages");
    }
    for (int n : new int[] {1, 17, 255, 256, 999, 4096, 100_003}) {
      agreeInPlace(n, dev.kiln.tests.Data.floats(n + 1, n, -6f, 6f), a -> InPlaceOps.gatedTanh(n, a, a),
          a -> InPlaceOpsKernels.gatedTanh(n, a, a), (lo, hi, a) -> InPlaceOpsSimdKernels.gatedTanh(lo, hi, n, a, a));
    }
  }

  /** A SIMD kernel's call over workers {@code [lo, hi)} with its one array as input and output. */
  private interface ChunkInPlace {
    void run(int lo, int hi, float[] a);
  }

  /**
   * The launcher and (with SIMD on) the SIMD kernel in chunks of 777 workers, each called in place
   * on a copy of {@code data}, against the plain method called in place on another.
   */
  private static void agreeInPlace(int n, float[] data, java.util.function.Consumer<float[]> plain,
      java.util.function.Consumer<float[]> launcher, ChunkInPlace simd) {
    float[] expected = data.clone();
    float[] actual = data.clone();
    float[] direct = data.clone();
    plain.accept(expected);
    launcher.accept(actual);
    assertArrayEquals(expected, actual, "launcher, N=" + n);
    if (dev.kiln.runtime.simd.Simd.ENABLED) {
      for (int lo = 0; lo < n; lo += 777) {
        simd.run(lo, Math.min(n, lo + 777), direct);
      }
      assertArrayEquals(expected, direct, "SIMD kernel in chunks of 777, N=" + n);
    }
  }

  @Test
  void aStencilInPlaceIsRefused() {
    float[] u = data();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> InPlaceOpsKernels.stencil(u.length, u, u));
    assertTrue(e.getMessage().startsWith("stencil: @Out argument 'y' is the same array as argument 'x'"), e.getMessage());
    assertArrayEquals(data(), u, "nothing was written");
  }

  @Test
  void swappingIntoTheInputsIsRefused() {
    float[] a = data();
    float[] b = data();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> InPlaceOpsKernels.swap(a.length, a, b, a, b));
    assertTrue(e.getMessage().contains("swap: @Out argument 'x' is the same array as argument 'a'"), e.getMessage());
  }

  @Test
  void twoOutputsThatAreOneArrayAreRefused() {
    float[] a = data();
    float[] b = data();
    float[] o = new float[a.length];
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> InPlaceOpsKernels.swap(a.length, a, b, o, o));
    assertTrue(e.getMessage().contains("@Out argument 'x' is the same array as argument 'y'"), e.getMessage());
  }

  @Test
  void aCompositeIsNeverInPlace() {
    float[] u = data();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> InPlaceOpsKernels.step(u.length, u, u));
    assertTrue(e.getMessage().startsWith("step: @Out argument 'out' is the same array as argument 'u'"), e.getMessage());
  }

  @Test
  void distinctArraysRunAsBefore() {
    float[] u = data();
    float[] expected = new float[u.length];
    InPlaceOps.step(u.length, u, expected);
    float[] actual = new float[u.length];
    InPlaceOpsKernels.step(u.length, u, actual);
    assertArrayEquals(expected, actual);
    float[] x = new float[u.length];
    float[] y = new float[u.length];
    InPlaceOpsKernels.swap(u.length, u, expected, x, y);
    assertArrayEquals(expected, x);
    assertArrayEquals(u, y);
  }

  /**
   * Column sums over a grid large enough for several chunks, one stored over an input the other
   * reads: the same floats as the plain method called in place (were the loops dealt to threads, the
   * second's stores could overwrite {@code w} before the first had read it).
   */
  @Test
  void columnSumsInPlaceReadEachInputBeforeItIsOverwritten() {
    int rows = 300;
    int n = 2100;
    float[] x = dev.kiln.tests.Data.floats(91, rows * n, -2f, 2f);
    float[] expectedW = dev.kiln.tests.Data.floats(92, n, 0.5f, 1.5f);
    float[] actualW = expectedW.clone();
    float[] expectedSums = new float[n];
    float[] actualSums = new float[n];
    for (int call = 0; call < 3; call++) { // (the launcher's SIMD choice may take calls to settle)
      InPlaceOps.columnSumsInPlace(rows, n, x, expectedW, expectedSums, expectedW);
      InPlaceOpsKernels.columnSumsInPlace(rows, n, x, actualW, actualSums, actualW);
      assertArrayEquals(expectedSums, actualSums);
      assertArrayEquals(expectedW, actualW);
    }
  }

  /** A gradient launcher is a backward pass (a composite of kernels): never in place, even where the math would allow it. */
  @Test
  void aGradientLauncherIsNeverInPlace() {
    float[] x = data();
    float[] y = new float[x.length];
    float[] dy = data();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> InPlaceOpsKernels.scaleGrad(x.length, x, 3f, y, dy, dy));
    assertTrue(e.getMessage().startsWith("scaleGrad: @Out argument 'dx' is the same array as argument 'dy'"), e.getMessage());
  }
}
