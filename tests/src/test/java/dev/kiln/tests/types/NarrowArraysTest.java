package dev.kiln.tests.types;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code short[]} and {@code byte[]} operators: the kernels give the plain methods' values exactly, wrapping included. */
class NarrowArraysTest {
  private static short[] shorts(long seed, int n) {
    SplittableRandom r = new SplittableRandom(seed);
    short[] a = new short[n];
    for (int i = 0; i < n; i++) {
      a[i] = (short) r.nextInt(Short.MIN_VALUE, Short.MAX_VALUE + 1);
    }
    return a;
  }

  private static byte[] bytes(long seed, int n) {
    SplittableRandom r = new SplittableRandom(seed);
    byte[] a = new byte[n];
    for (int i = 0; i < n; i++) {
      a[i] = (byte) r.nextInt(Byte.MIN_VALUE, Byte.MAX_VALUE + 1);
    }
    return a;
  }

  @ParameterizedTest(name = "N={0}")
  @CsvSource({"0", "1", "33", "70000"})
  void elementwise(int n) {
    short[] pcm = shorts(201, n);
    short[] out = new short[n];
    NarrowArrays.gain(n, pcm, 2.5f, out);
    short[] out2 = new short[n];
    NarrowArraysKernels.gain(n, pcm, 2.5f, out2);
    assertArrayEquals(out, out2);

    byte[] px = bytes(202, n);
    float[] y = new float[n];
    NarrowArrays.normalize(n, px, y);
    float[] y2 = new float[n];
    NarrowArraysKernels.normalize(n, px, y2);
    assertArrayEquals(y, y2);

    byte[] s = new byte[n];
    short[] p = new short[n];
    NarrowArrays.wrap(n, px, pcm, s, p);
    byte[] s2 = new byte[n];
    short[] p2 = new short[n];
    NarrowArraysKernels.wrap(n, px, pcm, s2, p2);
    assertArrayEquals(s, s2);
    assertArrayEquals(p, p2);
  }

  @ParameterizedTest(name = "B={0}, N={1}")
  @CsvSource({"1, 1", "4, 0", "7, 300", "200, 1000"})
  void rowSums(int b, int n) {
    short[] x = shorts(203, b * n);
    int[] s = new int[b];
    NarrowArrays.rowSums(b, n, x, s);
    int[] s2 = new int[b];
    NarrowArraysKernels.rowSums(b, n, x, s2);
    assertArrayEquals(s, s2);
  }
}
