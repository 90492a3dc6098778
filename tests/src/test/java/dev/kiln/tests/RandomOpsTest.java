package dev.kiln.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.testing.Agreement;
import dev.kiln.KRandom;
import dev.kiln.runtime.cpu.CpuExecutor;
import dev.kiln.tests.ops.RandomOps;
import dev.kiln.tests.ops.RandomOpsKernels;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Counter-based random numbers in operators: the CPU kernel draws the plain Java's numbers bit for
 * bit, the same tensor comes out however the index space is cut (by the executor's chunks, or by
 * the caller into slices), and dropout's derived gradient draws the forward pass's mask again.
 * (The emulated CUDA driver runs these operators too: {@code EmulatedGpuTest}.)
 */
class RandomOpsTest {
  @ParameterizedTest
  @ValueSource(ints = {1, 7, 1000, 100_003})
  void noiseIsTheSourcesBitForBit(int n) {
    float[] expected = new float[n];
    float[] actual = new float[n];
    RandomOps.noise(n, 2026, 5, expected);
    RandomOpsKernels.noise(n, 2026, 5, actual);
    Agreement.assertSame(expected, actual);
    assertEquals(KRandom.uniform(2026, 0, 5 + n - 1), actual[n - 1]);
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 7})
  void theSameTensorComesOutInAnyNumberOfSlices(int slices) {
    int n = 7 * 3000;
    assertTrue(CpuExecutor.chunks(n, 1) > 1, "the whole tensor runs as several chunks");
    float[] whole = new float[n];
    RandomOpsKernels.noise(n, 11, 0, whole);
    float[] pieced = new float[n];
    int per = n / slices;
    for (int s = 0; s < slices; s++) {
      float[] part = new float[per];
      RandomOpsKernels.noise(per, 11, s * per, part);
      System.arraycopy(part, 0, pieced, s * per, per);
    }
    Agreement.assertSame(whole, pieced);
  }

  @Test
  void dropoutZeroesAboutPAndScalesTheRestAsTheSourceDoes() {
    int n = 50_000;
    float p = 0.3f;
    float[] x = Data.floats(1, n, 0.5f, 1.5f);
    float[] expected = new float[n];
    float[] y = new float[n];
    RandomOps.dropout(n, p, 99, x, expected);
    RandomOpsKernels.dropout(n, p, 99, x, y);
    Agreement.assertSame(expected, y);
    int zeros = 0;
    for (int i = 0; i < n; i++) {
      if (y[i] == 0f) {
        zeros++;
      } else {
        assertEquals(x[i] / (1f - p), y[i]);
      }
    }
    assertEquals(p, zeros / (double) n, 0.01);
  }

  @Test
  void dropoutsGradientRecomputesTheSameMask() {
    int n = 10_000;
    float p = 0.4f;
    float[] x = Data.floats(2, n, 0.5f, 1.5f);
    float[] y = new float[n];
    RandomOpsKernels.dropout(n, p, 7, x, y);
    float[] dy = Data.floats(3, n, -1f, 1f);
    float[] dx = new float[n];
    RandomOpsKernels.dropoutGrad(n, p, 7, x, y, dy, dx);
    for (int i = 0; i < n; i++) {
      float want = y[i] == 0f ? 0f : dy[i] / (1f - p);
      assertEquals(want, dx[i], Math.ulp(want) * 2, "dx at " + i);
    }
  }

  @Test
  void rowsDrawPerStreamAndIndexInsideASequentialLoop() {
    int b = 9;
    int n = 301;
    float[] x = Data.floats(4, b * n, -1f, 1f);
    float[] y = new float[b * n];
    float[] total = new float[b];
    float[] yk = new float[b * n];
    float[] totalk = new float[b];
    RandomOps.jitterRows(b, n, 5, x, y, total);
    RandomOpsKernels.jitterRows(b, n, 5, x, yk, totalk);
    Agreement.assertSame(y, yk);
    Agreement.assertSame(total, totalk);
    assertEquals(x[n + 3] + 0.01f * (KRandom.uniform(5, 1, 3) - 0.5f), yk[n + 3]);
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 7, 100_003})
  void gaussianNoiseIsTheSourcesBitForBitAndItsGradientPassesThrough(int n) {
    float[] x = Data.floats(5, n, -1f, 1f);
    float[] expected = new float[n];
    float[] y = new float[n];
    RandomOps.gaussianNoise(n, 3, 0.25f, x, expected);
    RandomOpsKernels.gaussianNoise(n, 3, 0.25f, x, y);
    Agreement.assertSame(expected, y);
    assertEquals(x[n - 1] + 0.25f * KRandom.normal(3, 2, n - 1), y[n - 1]);
    float[] dy = Data.floats(6, n, -1f, 1f);
    float[] dx = new float[n];
    RandomOpsKernels.gaussianNoiseGrad(n, 3, 0.25f, x, y, dy, dx);
    Agreement.assertSame(dy, dx);
  }

  @Test
  void differentSeedsGiveDifferentTensors() {
    float[] a = new float[64];
    float[] b = new float[64];
    RandomOpsKernels.noise(64, 1, 0, a);
    RandomOpsKernels.noise(64, 2, 0, b);
    int same = 0;
    for (int i = 0; i < 64; i++) {
      same += a[i] == b[i] ? 1 : 0;
    }
    assertTrue(same < 4, same + " of 64 equal");
  }
}
