package dev.kiln.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.kiln.tests.ops.IntegerArithmetic;
import dev.kiln.tests.ops.IntegerArithmeticKernels;
import org.junit.jupiter.api.Test;

/**
 * Integer arithmetic that overflows, divides {@code MIN} by -1 or shifts past the width, through the
 * CPU kernels: Java's results, bit for bit (the CUDA side: {@code CudaEdgeCasesTest}).
 */
class IntegerArithmeticTest {
  @Test
  void theCpuKernelsComputeAsJavaDoes() {
    long[][] pairs = IntegerArithmetic.edgePairs();
    int n = pairs[0].length;
    int[] a = IntegerArithmetic.narrowed(pairs[0]);
    int[] b = IntegerArithmetic.narrowed(pairs[1]);
    int[][] expected = new int[7][n];
    int[][] actual = new int[7][n];
    IntegerArithmetic.intOps(n, a, b, expected[0], expected[1], expected[2], expected[3], expected[4], expected[5],
        expected[6]);
    IntegerArithmeticKernels.intOps(n, a, b, actual[0], actual[1], actual[2], actual[3], actual[4], actual[5],
        actual[6]);
    for (int k = 0; k < 7; k++) {
      assertArrayEquals(expected[k], actual[k], "int output " + k);
    }
    long[][] expectedLongs = new long[7][n];
    long[][] actualLongs = new long[7][n];
    IntegerArithmetic.longOps(n, pairs[0], pairs[1], expectedLongs[0], expectedLongs[1], expectedLongs[2],
        expectedLongs[3], expectedLongs[4], expectedLongs[5], expectedLongs[6]);
    IntegerArithmeticKernels.longOps(n, pairs[0], pairs[1], actualLongs[0], actualLongs[1], actualLongs[2],
        actualLongs[3], actualLongs[4], actualLongs[5], actualLongs[6]);
    for (int k = 0; k < 7; k++) {
      assertArrayEquals(expectedLongs[k], actualLongs[k], "long output " + k);
    }
    // the cases C gets wrong are among them
    assertArrayEquals(new int[] {Integer.MIN_VALUE}, new int[] {Integer.MIN_VALUE / -1});
  }
}
