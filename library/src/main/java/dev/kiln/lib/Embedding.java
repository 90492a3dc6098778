package dev.kiln.lib;

import dev.kiln.Dim;
import dev.kiln.Gradient;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Reduce;
import dev.kiln.Shape;

/**
 * Embedding lookup and its gradient: row {@code ids[i]} of a {@code [V, D]} table for each of
 * {@code N} ids, and back, each row of {@code dy} added into the table row it came from (a
 * scatter-add: rows looked up twice get both). The ids are data: an id outside {@code [0, V)}
 * throws {@code ArrayIndexOutOfBoundsException}, from the plain Java, the CPU kernel and the CUDA
 * launcher alike. The scatter-add's sums are added in a fixed order (per chunk of ids, the chunks in
 * order), so repeated runs give the same bits; they may differ from the plain loop's in the last
 * bits where an id repeats.
 */
public final class Embedding {
  private Embedding() {}

  /** {@code y[i, d] = table[ids[i], d]}. */
  @Operator
  public static void embedding(@Dim int N, @Dim int V, @Dim int D, @Shape("N") int[] ids,
      @Shape("V, D") float[] table, @Out @Shape("N, D") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      for (@Parallel int d = 0; d < D; d++) {
        y[i * D + d] = table[ids[i] * D + d];
      }
    }
  }

  /** {@code dtable[ids[i], d] += dy[i, d]} for every id, into {@code dtable}'s own content. */
  @Operator
  public static void scatterAddRows(@Dim int N, @Dim int V, @Dim int D, @Shape("N") int[] ids,
      @Shape("N, D") float[] dy, @Out @Reduce @Shape("V, D") float[] dtable) {
    for (@Parallel int i = 0; i < N; i++) {
      for (@Parallel int d = 0; d < D; d++) {
        dtable[ids[i] * D + d] += dy[i * D + d];
      }
    }
  }

  /** Every element of {@code x} zero. */
  @Operator
  public static void zeros(@Dim int N, @Out @Shape("N") float[] x) {
    for (@Parallel int i = 0; i < N; i++) {
      x[i] = 0f;
    }
  }

  /**
   * The gradient of {@link #embedding}: {@code dtable} zeroed, then every row of {@code dy} added
   * into the row its id names ({@link #scatterAddRows}). The ids get no gradient.
   */
  @Gradient(of = "embedding")
  public static void embeddingBackward(@Dim int N, @Dim int V, @Dim int D, @Shape("N") int[] ids,
      @Shape("V, D") float[] table, @Shape("N, D") float[] y, @Shape("N, D") float[] dy,
      @Out @Shape("V, D") float[] dtable) {
    zeros(V * D, dtable);
    scatterAddRows(N, V, D, ids, dy, dtable);
  }
}
