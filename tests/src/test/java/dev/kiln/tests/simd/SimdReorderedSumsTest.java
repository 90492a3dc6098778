package dev.kiln.tests.simd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.runtime.simd.Simd;
import dev.kiln.tests.Data;
import dev.kiln.tests.simd.reordered.SumOps;
import dev.kiln.tests.simd.reordered.SumOpsKernels;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * {@code -Akiln.simd.sums=reorder}: the SIMD row kernel keeps a partial sum per lane. Its sums then
 * agree with the source's within the bound LANGUAGE.md states, each of two orders of adding n terms
 * being within (n - 1) u Σ|t| of the exact sum; the max fold and everything the scalar kernel runs
 * (the build's second run, -Dkiln.simd=false) stay bit-identical.
 */
class SimdReorderedSumsTest {
  private static final double U = Math.ulp(1f) / 2;

  @Test
  void theListingSaysTheSumsAreReordered() throws IOException {
    try (InputStream in = SumOps.class.getResourceAsStream("/META-INF/kiln/dev/kiln/tests/simd/reordered/SumOps.ir.txt")) {
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(text.contains("simd rowStats: yes, 3 of 3 sequential loops as vectors, 4 rows at a time; sums reordered"
          + " (-Akiln.simd.sums=reorder)\n"), text);
    }
  }

  @ParameterizedTest(name = "B=3, N={0}")
  @ValueSource(ints = {0, 1, 15, 16, 17, 100, 4099})
  void sumsAgreeWithinTheBoundAndTheRestExactly(int n) {
    int rows = 3;
    float[] x = Data.floats(n, rows * n, -100f, 100f);
    float[][] want = {new float[rows], new float[rows], new float[rows], new float[rows * n]};
    float[][] got = {new float[rows], new float[rows], new float[rows], new float[rows * n]};
    SumOps.rowStats(rows, n, x, want[0], want[1], want[2], want[3]);
    SumOpsKernels.rowStats(rows, n, x, got[0], got[1], got[2], got[3]);
    assertArrayEquals(want[2], got[2], "the max fold is exact in any order");
    if (!Simd.ENABLED) {
      for (int i = 0; i < 4; i++) {
        assertArrayEquals(want[i], got[i], "the scalar kernel keeps the source's order");
      }
      return;
    }
    for (int b = 0; b < rows; b++) {
      double abs = 0;
      for (int k = 0; k < n; k++) {
        abs += Math.abs(x[b * n + k]);
      }
      double bound = 2 * Math.max(n - 1, 0) * U * abs + 1e-30;
      assertTrue(Math.abs(want[0][b] - got[0][b]) <= bound, "sum of row " + b + ": " + got[0][b] + " vs " + want[0][b]);
      assertTrue(Math.abs(want[1][b] - got[1][b]) <= bound / 2 + 2 * n * U, "difference fold of row " + b);
    }
  }
}
