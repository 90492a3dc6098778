package dev.kiln.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.tests.ops.LayoutKernels;
import dev.kiln.tests.ops.LinearKernels;
import dev.kiln.tests.ops.LstmKernels;
import dev.kiln.tests.ops.ReductionsKernels;
import dev.kiln.tests.ops.StencilsKernels;
import org.junit.jupiter.api.Test;

/**
 * Generated grid launchers check their arguments before any work: a null array, a negative
 * {@code @Dim}, or an array whose length is not the product of its {@code @Shape} is an {@link
 * IllegalArgumentException} that names the operator and the argument. Each call below has exactly
 * one bad argument.
 */
class ArgumentChecksTest {
  @Test
  void nullArrays() {
    Errors.assertRejects(
        "saxpy", "x", () -> LinearKernels.saxpy(3, 1f, null, new float[3], new float[3]));
    Errors.assertRejects(
        "saxpy", "y", () -> LinearKernels.saxpy(3, 1f, new float[3], null, new float[3]));
    Errors.assertRejects(
        "saxpy", "out", () -> LinearKernels.saxpy(3, 1f, new float[3], new float[3], null));
    Errors.assertRejects(
        "lstmCell",
        "gates",
        () -> LstmKernels.lstmCell(2, 3, null, new float[6], 1f, new float[6], new float[6]));
    Errors.assertRejects(
        "lstmCell",
        "hNext",
        () -> LstmKernels.lstmCell(2, 3, new float[24], new float[6], 1f, new float[6], null));
    Errors.assertRejects("sum", "s", () -> ReductionsKernels.sum(3, new float[3], null));
    Errors.assertRejects(
        "gather", "idx", () -> LayoutKernels.gather(4, 3, new float[4], null, new float[3]));
    Errors.assertRejects(
        "heatStep", "u", () -> StencilsKernels.heatStep(3, null, 0.25, new double[3]));
  }

  /** Even empty arrays, whose lengths a negative extent might seem to match, are refused. */
  @Test
  void negativeDims() {
    Errors.assertRejects(
        "saxpy", "N", () -> LinearKernels.saxpy(-1, 1f, new float[0], new float[0], new float[0]));
    Errors.assertRejects(
        "lstmCell",
        "B",
        () ->
            LstmKernels.lstmCell(
                -1, 3, new float[0], new float[0], 1f, new float[0], new float[0]));
    Errors.assertRejects(
        "lstmCell",
        "H",
        () ->
            LstmKernels.lstmCell(
                2, -3, new float[0], new float[0], 1f, new float[0], new float[0]));
    Errors.assertRejects(
        "affine",
        "K",
        () ->
            LinearKernels.affine(2, -1, 3, new float[0], new float[0], new float[3], new float[6]));
    Errors.assertRejects(
        "batchTranspose",
        "N",
        () -> LayoutKernels.batchTranspose(2, 3, -2, new float[0], new float[0]));
    Errors.assertRejects(
        "rowSums", "K", () -> ReductionsKernels.rowSums(2, -5, new float[0], new float[2]));
  }

  @Test
  void wrongLengths() {
    Errors.assertRejects(
        "saxpy", "x", () -> LinearKernels.saxpy(3, 1f, new float[4], new float[3], new float[3]));
    Errors.assertRejects(
        "saxpy", "y", () -> LinearKernels.saxpy(3, 1f, new float[3], new float[2], new float[3]));
    Errors.assertRejects(
        "saxpy", "out", () -> LinearKernels.saxpy(3, 1f, new float[3], new float[3], new float[4]));
    // gates is "B, 4*H": 24 for B=2, H=3; 6 (forgetting the 4) is wrong.
    Errors.assertRejects(
        "lstmCell",
        "gates",
        () ->
            LstmKernels.lstmCell(2, 3, new float[6], new float[6], 1f, new float[6], new float[6]));
    Errors.assertRejects(
        "lstmCell",
        "c",
        () ->
            LstmKernels.lstmCell(
                2, 3, new float[24], new float[7], 1f, new float[6], new float[6]));
    Errors.assertRejects(
        "lstmCell",
        "cNext",
        () ->
            LstmKernels.lstmCell(
                2, 3, new float[24], new float[6], 1f, new float[5], new float[6]));
    Errors.assertRejects(
        "matvec", "x", () -> LinearKernels.matvec(4, 5, new float[20], new float[4], new float[4]));
    // x is "N + 2", k is "3".
    Errors.assertRejects(
        "conv3", "x", () -> StencilsKernels.conv3(5, new float[5], new float[3], new float[5]));
    Errors.assertRejects(
        "conv3", "k", () -> StencilsKernels.conv3(5, new float[7], new float[2], new float[5]));
    Errors.assertRejects("sum", "s", () -> ReductionsKernels.sum(3, new float[3], new float[2]));
    Errors.assertRejects("sum", "s", () -> ReductionsKernels.sum(3, new float[3], new float[0]));
    Errors.assertRejects(
        "rowSums", "s", () -> ReductionsKernels.rowSums(2, 5, new float[10], new float[5]));
    Errors.assertRejects(
        "gather", "idx", () -> LayoutKernels.gather(4, 3, new float[4], new int[4], new float[3]));
    Errors.assertRejects(
        "intMix", "out", () -> LayoutKernels.intMix(3, new int[3], new int[3], 7, new int[2]));
    Errors.assertRejects(
        "heatStep", "next", () -> StencilsKernels.heatStep(3, new double[3], 0.25, new double[4]));
    Errors.assertRejects(
        "batchTranspose",
        "out",
        () -> LayoutKernels.batchTranspose(2, 3, 4, new float[24], new float[25]));
  }

  /**
   * B * N = 2^32 wraps to 0 in int arithmetic; a check done in int would accept the empty arrays
   * and then run 2^32 workers.
   */
  @Test
  void shapesLargerThanAnArray() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                LinearKernels.addBias(
                    65_536, 65_536, new float[0], new float[65_536], new float[0]));
    assertTrue(Errors.mentions(e.getMessage(), "addBias"), e.getMessage());
    assertTrue(
        Errors.mentions(e.getMessage(), "x") || Errors.mentions(e.getMessage(), "out"),
        e.getMessage());
  }

  @Test
  void aRejectedCallDoesNoWork() {
    float[] out = Data.filled(3, Float.NaN);
    Errors.assertRejects(
        "saxpy", "y", () -> LinearKernels.saxpy(3, 1f, new float[3], new float[4], out));
    assertArrayEquals(Data.filled(3, Float.NaN), out);

    float[] s = {1f};
    Errors.assertRejects("sum", "x", () -> ReductionsKernels.sum(3, new float[] {1f, 2f}, s));
    assertArrayEquals(new float[] {1f}, s);
  }
}
