package dev.kiln.bench;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import java.util.Random;

/** Random inputs, the same floats for Kiln (arrays) and PyTorch (NDArrays). */
final class Data {
  private Data() {}

  static float[] random(long seed, int n, float scale) {
    Random r = new Random(seed);
    float[] x = new float[n];
    for (int i = 0; i < n; i++) {
      x[i] = (r.nextFloat() * 2 - 1) * scale;
    }
    return x;
  }

  static NDArray nd(NDManager m, float[] x, long... shape) {
    return m.create(x, new Shape(shape));
  }

  /** Every input attached to {@code sub} for one invocation, so the invocation's results are freed with it. */
  static void attach(NDManager sub, NDArray... inputs) {
    for (NDArray a : inputs) {
      a.tempAttach(sub);
    }
  }
}
