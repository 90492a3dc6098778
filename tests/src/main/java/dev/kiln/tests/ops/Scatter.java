package dev.kiln.tests.ops;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Reduce;
import dev.kiln.Shape;

/**
 * An accumulation at an index that is data, unchecked: {@code out[index[i]] += x[i]}. Plain Java
 * throws {@code ArrayIndexOutOfBoundsException} for an index outside {@code out}, and so must the
 * generated launchers, on the CPU and on CUDA (whose kernels cannot throw: the device launcher
 * checks a flag the kernel sets). Kept out of the generic agreement runs, which draw indices at
 * random.
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
}
