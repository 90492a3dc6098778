package dev.kiln.tests.simd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.runtime.simd.AlignedCopies;
import dev.kiln.runtime.simd.Simd;
import dev.kiln.tests.Data;
import dev.kiln.tests.ops.Normalization;
import dev.kiln.tests.ops.NormalizationKernels;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Layer norm's launcher hands its SIMD form copies of {@code gamma} and {@code beta}
 * ({@code AlignedCopies}, in arrays longer than theirs that earlier calls have written): its floats
 * are still the plain method's, bit for bit, at row lengths that are and are not multiples of a
 * vector, after calls with longer rows, and with calls on several threads at once, more than the
 * pool has arrays for.
 */
class AlignedCopiesTest {
  private static void agree(String what, int r, int n, long seed) {
    float[] x = Data.floats(seed, r * n, -3f, 5f); // no specials: a NaN in a row makes the whole row NaN
    float[] gamma = Data.floats(seed + 1, n, 0.5f, 1.5f);
    float[] beta = Data.floats(seed + 2, n);
    float[] expected = Data.filled(r * n, Float.NaN);
    Normalization.layerNorm(r, n, x, gamma, beta, 1e-5f, expected);
    float[] actual = Data.filled(r * n, Float.NaN);
    NormalizationKernels.layerNorm(r, n, x, gamma, beta, 1e-5f, actual);
    assertArrayEquals(expected, actual, what + " R=" + r + ", N=" + n + " (" + Simd.describe() + "; copies "
        + AlignedCopies.describe() + ")");
  }

  @Test
  void rowsReadFromCopiesGiveThePlainMethodsFloats() {
    long before = AlignedCopies.copied();
    int[][] sizes = {{64, 2048}, {16, 300}, {9, 257}, {8, 4096}, {300, 64}, {7, 2048}, {40, 1000}};
    for (int i = 0; i < sizes.length; i++) {
      agree("call " + i, sizes[i][0], sizes[i][1], 31 + i);
    }
    if (Simd.ENABLED && AlignedCopies.describe().startsWith("on")) {
      // five of the calls have the rows and the row length to copy for (two inputs each)
      assertTrue(AlignedCopies.copied() - before >= 10, AlignedCopies.copied() - before + " inputs copied");
    }
  }

  @Test
  void callsOnSeveralThreadsEachReadTheirOwnInputs() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2 * AlignedCopies.MAX_ARRAYS);
    try {
      List<Future<?>> calls = new ArrayList<>();
      for (int t = 0; t < 2 * AlignedCopies.MAX_ARRAYS; t++) {
        final int seed = 100 * t;
        calls.add(pool.submit(() -> {
          for (int i = 0; i < 20; i++) {
            agree("thread " + seed / 100 + ", call " + i, 12 + i % 5, 512 + 16 * (seed / 100) + i, seed + i);
          }
        }));
      }
      for (Future<?> f : calls) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
