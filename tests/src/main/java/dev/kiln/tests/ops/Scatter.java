package dev.kiln.tests.ops;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Reduce;
import dev.kiln.Shape;

/**
 * Indices that are data, unchecked: an accumulation {@code out[index[i]] += x[i]} and a read {@code
 * table[index[i] * D + d]}. Plain Java throws {@code ArrayIndexOutOfBoundsException} for an index
 * outside the array, and so must the generated launchers, on the CPU and on CUDA (whose kernels
 * cannot throw: they set a flag that the launcher or the runtime checks). Kept out of the generic
 * agreement runs, which draw indices at random.
 */
public final class Scatter {
  private Scatter() {}

  @Operator
  public static void scatterAdd(
      @Dim int N, @Dim int M, @Shape("N") int[] index, @Shape("N") float[] x, @Out @Reduce @Shape("M") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[index[i]] += x[i];
    }
  }

  /** An embedding lookup: row {@code index[i]} of a {@code [M, D]} table. */
  @Operator
  public static void gatherRows(
      @Dim int N, @Dim int M, @Dim int D, @Shape("N") int[] index, @Shape("M, D") float[] table,
      @Out @Shape("N, D") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      for (@Parallel int d = 0; d < D; d++) {
        out[i * D + d] = table[index[i] * D + d];
      }
    }
  }

  /** An embedding bag: the sum of K rows of a table, the read's index data, inside a loop carrying the sum. */
  @Operator
  public static void bagSums(
      @Dim int N, @Dim int K, @Dim int M, @Shape("N, K") int[] index, @Shape("M") float[] table,
      @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      float s = 0f;
      for (int k = 0; k < K; k++) {
        s += table[index[i * K + k]];
      }
      out[i] = s;
    }
  }

  /** Row sums of a sparse matrix in CSR form: a loop whose bounds are data, reading at its variable. */
  @Operator
  public static void csrRowSums(
      @Dim int R, @Dim int E, @Shape("R") int[] start, @Shape("R") int[] end, @Shape("E") float[] values,
      @Out @Shape("R") float[] out) {
    for (@Parallel int r = 0; r < R; r++) {
      float s = 0f;
      for (int e = start[r]; e < end[r]; e++) {
        s += values[e];
      }
      out[r] = s;
    }
  }
}
