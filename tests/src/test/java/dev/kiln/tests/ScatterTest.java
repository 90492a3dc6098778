package dev.kiln.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kiln.testing.Agreement;
import dev.kiln.tests.ops.Scatter;
import dev.kiln.tests.ops.ScatterKernels;
import org.junit.jupiter.api.Test;

/** An accumulation at a data index: in range it agrees with plain Java, out of range it throws as Java does. */
class ScatterTest {
  @Test
  void inRangeIndicesAgree() {
    int n = 5000;
    int m = 37;
    int[] index = Data.ints(140, n, 0, m);
    float[] x = Data.integral(141, n, 16);
    float[] expected = Data.integral(142, m, 4);
    float[] actual = expected.clone();
    Scatter.scatterAdd(n, m, index, x, expected);
    ScatterKernels.scatterAdd(n, m, index, x, actual);
    Agreement.assertSame(expected, actual);
  }

  @Test
  void anIndexOutsideTheOutputThrowsAsInJava() {
    int[] index = {0, 3, 7};
    float[] x = {1, 2, 3};
    assertThrows(ArrayIndexOutOfBoundsException.class, () -> Scatter.scatterAdd(3, 4, index, x, new float[4]));
    assertThrows(ArrayIndexOutOfBoundsException.class, () -> ScatterKernels.scatterAdd(3, 4, index, x, new float[4]));
    int[] negative = {0, -1, 2};
    assertThrows(ArrayIndexOutOfBoundsException.class, () -> ScatterKernels.scatterAdd(3, 4, negative, x, new float[4]));
    assertArrayEquals(new int[] {0, 3, 7}, index);
  }

  @Test
  void gatherRowsAgreesAndThrowsOutOfRange() {
    int[] index = {2, 0, 2, 1};
    float[] table = Data.integral(144, 3 * 5, 16);
    float[] expected = new float[4 * 5];
    float[] actual = new float[4 * 5];
    Scatter.gatherRows(4, 3, 5, index, table, expected);
    ScatterKernels.gatherRows(4, 3, 5, index, table, actual);
    Agreement.assertSame(expected, actual);
    int[] outside = {2, 0, 3, 1};
    assertThrows(ArrayIndexOutOfBoundsException.class, () -> ScatterKernels.gatherRows(4, 3, 5, outside, table, actual));
  }

  @Test
  void bagSumsAndCsrRowSumsAgreeAndThrowOutOfRange() {
    int[] index = {0, 2, 2, 1, 0, 0};
    float[] table = {1, 2, 4};
    float[] expected = new float[3];
    float[] actual = new float[3];
    Scatter.bagSums(3, 2, 3, index, table, expected);
    ScatterKernels.bagSums(3, 2, 3, index, table, actual);
    Agreement.assertSame(expected, actual);
    assertThrows(ArrayIndexOutOfBoundsException.class,
        () -> ScatterKernels.bagSums(3, 2, 3, new int[] {0, 2, 3, 1, 0, 0}, table, actual));

    int[] start = {0, 2, 2};
    int[] end = {2, 2, 5};
    float[] values = {1, 2, 4, 8, 16};
    float[] rows = new float[3];
    float[] kernelRows = new float[3];
    Scatter.csrRowSums(3, 5, start, end, values, rows);
    ScatterKernels.csrRowSums(3, 5, start, end, values, kernelRows);
    Agreement.assertSame(rows, kernelRows);
    // the scalar loop throws ArrayIndexOutOfBoundsException, its SIMD form the vector load's
    // IndexOutOfBoundsException (its superclass): out of range either way, never a wrong sum
    assertThrows(IndexOutOfBoundsException.class,
        () -> ScatterKernels.csrRowSums(3, 5, start, new int[] {2, 2, 6}, values, kernelRows));
  }
}
