package dev.kiln.runtime.cpu;

import java.util.Arrays;

/**
 * Per-chunk partial results of a {@code @Reduce} output. Each chunk of the grid accumulates into a
 * private copy that starts at the operator's identity; {@code foldInto} then combines the copies in
 * a fixed pairwise tree (chunk 0 with 1, 2 with 3, ...; then the pairs), so the result does not
 * depend on thread timing, and folds the total into the output's initial value.
 */
public final class Partials {
  private Partials() {}

  public static float[][] floats(ReduceOp op, int chunks, int length) {
    float[][] partials = new float[chunks][length];
    for (float[] p : partials) {
      Arrays.fill(p, op.identityFloat());
    }
    return partials;
  }

  public static double[][] doubles(ReduceOp op, int chunks, int length) {
    double[][] partials = new double[chunks][length];
    for (double[] p : partials) {
      Arrays.fill(p, op.identityDouble());
    }
    return partials;
  }

  public static int[][] ints(ReduceOp op, int chunks, int length) {
    int[][] partials = new int[chunks][length];
    for (int[] p : partials) {
      Arrays.fill(p, op.identityInt());
    }
    return partials;
  }

  public static void foldInto(float[] out, float[][] partials, ReduceOp op) {
    for (int stride = 1; stride < partials.length; stride *= 2) {
      for (int i = 0; i + stride < partials.length; i += 2 * stride) {
        float[] a = partials[i];
        float[] b = partials[i + stride];
        for (int e = 0; e < a.length; e++) {
          a[e] = op.combine(a[e], b[e]);
        }
      }
    }
    float[] total = partials[0];
    for (int e = 0; e < out.length; e++) {
      out[e] = op.combine(out[e], total[e]);
    }
  }

  public static void foldInto(double[] out, double[][] partials, ReduceOp op) {
    for (int stride = 1; stride < partials.length; stride *= 2) {
      for (int i = 0; i + stride < partials.length; i += 2 * stride) {
        double[] a = partials[i];
        double[] b = partials[i + stride];
        for (int e = 0; e < a.length; e++) {
          a[e] = op.combine(a[e], b[e]);
        }
      }
    }
    double[] total = partials[0];
    for (int e = 0; e < out.length; e++) {
      out[e] = op.combine(out[e], total[e]);
    }
  }

  public static void foldInto(int[] out, int[][] partials, ReduceOp op) {
    for (int stride = 1; stride < partials.length; stride *= 2) {
      for (int i = 0; i + stride < partials.length; i += 2 * stride) {
        int[] a = partials[i];
        int[] b = partials[i + stride];
        for (int e = 0; e < a.length; e++) {
          a[e] = op.combine(a[e], b[e]);
        }
      }
    }
    int[] total = partials[0];
    for (int e = 0; e < out.length; e++) {
      out[e] = op.combine(out[e], total[e]);
    }
  }

  public static long[][] longs(ReduceOp op, int chunks, int length) {
    long[][] partials = new long[chunks][length];
    for (long[] p : partials) {
      Arrays.fill(p, op.identityLong());
    }
    return partials;
  }

  public static void foldInto(long[] out, long[][] partials, ReduceOp op) {
    for (int stride = 1; stride < partials.length; stride *= 2) {
      for (int i = 0; i + stride < partials.length; i += 2 * stride) {
        long[] a = partials[i];
        long[] b = partials[i + stride];
        for (int e = 0; e < a.length; e++) {
          a[e] = op.combine(a[e], b[e]);
        }
      }
    }
    long[] total = partials[0];
    for (int e = 0; e < out.length; e++) {
      out[e] = op.combine(out[e], total[e]);
    }
  }

  // Partial results of a @Reduce array of records (a user monoid): one array per component, each
  // filled with its component of the record's @Identity value; the generated kernel folds them.

  public static float[][] filled(float identity, int chunks, int length) {
    float[][] partials = new float[chunks][length];
    for (float[] p : partials) {
      Arrays.fill(p, identity);
    }
    return partials;
  }

  public static double[][] filled(double identity, int chunks, int length) {
    double[][] partials = new double[chunks][length];
    for (double[] p : partials) {
      Arrays.fill(p, identity);
    }
    return partials;
  }

  public static int[][] filled(int identity, int chunks, int length) {
    int[][] partials = new int[chunks][length];
    for (int[] p : partials) {
      Arrays.fill(p, identity);
    }
    return partials;
  }

  public static long[][] filled(long identity, int chunks, int length) {
    long[][] partials = new long[chunks][length];
    for (long[] p : partials) {
      Arrays.fill(p, identity);
    }
    return partials;
  }
}
