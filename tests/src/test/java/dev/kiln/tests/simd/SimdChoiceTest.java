package dev.kiln.tests.simd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kiln.runtime.cpu.CpuExecutor;
import dev.kiln.runtime.simd.Simd;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The launchers as a user runs them with {@code --add-modules jdk.incubator.vector} and no {@code
 * -Dkiln.simd}: each kernel with an exact SIMD form hands part of its first chunk to the SIMD form
 * while the JIT warms it, and all of it once it measures faster ({@code CpuExecutor.forEachChunkChoosing}).
 * Whatever the split of each call, the results are the plain Java's floats. Run by the build's
 * {@code simd-choosing} execution; the other runs take the SIMD forms from the first call ({@code
 * -Dkiln.simd=always}) or never ({@code false}). When the SIMD form is adopted is the JIT's timing,
 * not asserted.
 */
class SimdChoiceTest {
  @Test
  void everyCallGivesThePlainJavasFloatsWhileTheFormsAreChosen() {
    assumeTrue(Simd.ENABLED && !Simd.ALWAYS, "the launchers choose between the forms only with SIMD on and not "
        + "-Dkiln.simd=always (the build's simd-choosing run): " + Simd.describe());
    int rows = 2051; // 16 chunks of 128 rows on the build's pool (4 threads, grain 256), and 3 rows
    int n = 37; // rows of 2 vectors and a tail
    float[] x = SimdTest.data(3, rows * n);
    float[] want = new float[rows * n];
    SimdOps.softmax(rows, n, x, want);
    float[] a = SimdTest.data(4, 10_000);
    float[] b = SimdTest.data(5, 10_000);
    float[] wantY = new float[a.length];
    float[] wantZ = new float[a.length];
    SimdOps.functions(a.length, a, b, wantY, wantZ);
    for (int call = 0; call < 400; call++) {
      float[] got = new float[rows * n];
      SimdOpsKernels.softmax(rows, n, x, got);
      assertArrayEquals(want, got, "softmax, call " + call + ": " + CpuExecutor.simdChoices());
      float[] y = new float[a.length];
      float[] z = new float[a.length];
      SimdOpsKernels.functions(a.length, a, b, y, z);
      assertArrayEquals(wantY, y, "functions y, call " + call);
      assertArrayEquals(wantZ, z, "functions z, call " + call);
    }
    Map<String, String> choices = CpuExecutor.simdChoices();
    // each SIMD form ran on parts of chunks at least twice (its first run is not measured): a choice
    // measured, or made
    for (String op : new String[] {"SimdOps.softmax ", "SimdOps.functions "}) {
      String choice = choices.entrySet().stream().filter(e -> e.getKey().startsWith(op)).map(Map.Entry::getValue)
          .findFirst().orElse(null);
      assertTrue(choice != null && !choice.equals("trying (not measured yet)"), op + ": " + choices);
    }
  }
}
