package dev.kiln.tests.records;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Shape;
import dev.kiln.lib.MeanVar;
import dev.kiln.lib.Stats;

/**
 * Composites of the standard library's monoid operators ({@link Stats}, on its record {@link
 * MeanVar}), compiled in another jar: Kiln reads their IR, user monoid and all, from the class path
 * and fuses them as if their source were here.
 */
public final class LibraryMonoids {
  private LibraryMonoids() {}

  /**
   * Each column's standard deviation, all from the library: the identity, the column statistics
   * (a reduction down columns, fused with the deviation), then the deviation. (A record of another
   * module has no source here, so operators of this module cannot read its components: the
   * library's operators do.)
   */
  @Operator
  public static void columnDeviations(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("N") float[] out) {
    MeanVar[] s = new MeanVar[N];
    Stats.empties(N, s);
    Stats.columnMeanVar(B, N, x, s);
    Stats.deviations(N, s, out);
  }

  /** The deviation of all of {@code x}: a reduction over all workers, then its epilogue. */
  @Operator
  public static void deviation(@Dim int N, @Shape("N") float[] x, @Out @Shape("1") float[] out) {
    MeanVar[] s = new MeanVar[1];
    Stats.empties(1, s);
    Stats.meanVar(N, x, s);
    Stats.deviations(1, s, out);
  }
}
