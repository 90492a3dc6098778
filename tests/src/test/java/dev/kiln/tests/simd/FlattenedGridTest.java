package dev.kiln.tests.simd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.runtime.cpu.CpuExecutor;
import dev.kiln.runtime.simd.Simd;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A grid whose outermost dimension is shorter than the pool (a batch of 1 to 3 rows) is cut, when
 * the scalar kernel runs, into chunks of its flattened two outermost dimensions ({@code
 * CpuExecutor.flatChunks}), chunk edges inside rows. The plain Java's floats at every size; run with
 * SIMD on (outer chunks, the SIMD form) and again with it off (the build's scalar run: flattened).
 * The build's pool has 4 threads and a grain of 256, so these sizes take the flattened path there.
 */
class FlattenedGridTest {
  @ParameterizedTest
  @CsvSource({"1, 4099", "2, 1000", "3, 4099", "3, 17", "1, 1", "5, 3001"})
  void rowsGiveThePlainJavasFloats(int b, int n) {
    float[] x = SimdTest.data(11, b * n);
    float[] scale = SimdTest.data(12, b);
    float[] shift = SimdTest.data(13, n);
    float[] want = new float[b * n];
    float[] got = new float[b * n];
    SimdOps.rows(b, n, x, scale, shift, want);
    SimdOpsKernels.rows(b, n, x, scale, shift, got);
    assertArrayEquals(want, got, "rows " + b + " x " + n + " (" + Simd.describe() + ")");
  }

  @ParameterizedTest
  @CsvSource({"1, 5, 77", "2, 9, 300", "3, 1, 1000"})
  void aThreeDimensionalGridFlattensItsTwoOutermost(int b, int c, int h) {
    float[] x = SimdTest.data(14, b * c * 2 * h);
    float[] want = new float[b * c * h];
    float[] got = new float[b * c * h];
    SimdOps.blocks(b, c, h, x, want);
    SimdOpsKernels.blocks(b, c, h, x, got);
    assertArrayEquals(want, got, "blocks " + b + " x " + c + " x " + h);
  }

  @ParameterizedTest
  @CsvSource({"1, 4099", "3, 4099", "2, 1000"})
  void theseSizesTakeTheFlattenedPath(int b, int n) {
    assertTrue(CpuExecutor.flatChunks(b, n, n) > 0, "flatChunks(" + b + ", " + n + ") with " + CpuExecutor.threads()
        + " threads");
  }
}
