package dev.kiln.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.kiln.tests.ops.Conversions;
import dev.kiln.tests.ops.ConversionsKernels;
import org.junit.jupiter.api.Test;

/** Floats and doubles converted to integers by the CPU kernels: Java's conversion (NaN to 0, saturated), bit for bit. */
class ConversionsTest {
  @Test
  void theCpuKernelsConvertAsJavaDoes() {
    double[] edges = Conversions.EDGES;
    int n = edges.length;
    float[] xf = new float[n];
    for (int i = 0; i < n; i++) {
      xf[i] = (float) edges[i];
    }
    int[] expectedInts = new int[n];
    int[] ints = new int[n];
    Conversions.floatsToInts(n, xf, expectedInts);
    ConversionsKernels.floatsToInts(n, xf, ints);
    assertArrayEquals(expectedInts, ints);
    Conversions.doublesToInts(n, edges, expectedInts);
    ConversionsKernels.doublesToInts(n, edges, ints);
    assertArrayEquals(expectedInts, ints);
    long[] expectedLongs = new long[n];
    long[] longs = new long[n];
    Conversions.floatsToLongs(n, xf, expectedLongs);
    ConversionsKernels.floatsToLongs(n, xf, longs);
    assertArrayEquals(expectedLongs, longs);
    Conversions.doublesToLongs(n, edges, expectedLongs);
    ConversionsKernels.doublesToLongs(n, edges, longs);
    assertArrayEquals(expectedLongs, longs);
    short[] expectedShorts = new short[n];
    short[] shorts = new short[n];
    Conversions.floatsToShorts(n, xf, expectedShorts);
    ConversionsKernels.floatsToShorts(n, xf, shorts);
    assertArrayEquals(expectedShorts, shorts);
    assertArrayEquals(new int[] {0, Integer.MAX_VALUE, Integer.MIN_VALUE}, java.util.Arrays.copyOf(expectedInts, 3));
  }
}
