package dev.kiln.sample;

import dev.kiln.lib.ElementwiseKernels;
import dev.kiln.lib.LayoutKernels;
import dev.kiln.lib.RowsKernels;
import java.util.List;
import java.util.SplittableRandom;

/** The four composites of the fusion benchmark at a given size, with their inputs. */
final class FusionCases {
  private FusionCases() {}

  static List<FusionCase> all(int rows, int cols, long seed) {
    return List.of(lstmCell(rows, cols, seed), ovl(rows, cols, seed), softmax(rows, cols, seed), layerNorm(rows, cols, seed));
  }

  static float[] random(SplittableRandom r, int n, double lo, double hi) {
    float[] a = new float[n];
    for (int i = 0; i < n; i++) {
      a[i] = (float) (lo + (hi - lo) * r.nextDouble());
    }
    return a;
  }

  static FusionCase lstmCell(int b, int h, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    int n = b * h;
    float[] gates = random(r, 4 * n, -3, 3);
    float[] c = random(r, n, -1, 1);
    float[] cNext = new float[n];
    float[] hNext = new float[n];
    float[] cRef = new float[n];
    float[] hRef = new float[n];
    float[][] t = new float[12][n];
    Runnable unfused = () -> {
      LayoutKernels.split4(b, h, gates, t[0], t[1], t[2], t[3]);
      ElementwiseKernels.addScalar(n, t[2], 1f, t[4]);
      ElementwiseKernels.sigmoid(n, t[4], t[5]);
      ElementwiseKernels.sigmoid(n, t[0], t[6]);
      ElementwiseKernels.tanh(n, t[1], t[7]);
      ElementwiseKernels.mul(n, c, t[5], t[8]);
      ElementwiseKernels.mul(n, t[6], t[7], t[9]);
      ElementwiseKernels.add(n, t[8], t[9], cNext);
      ElementwiseKernels.tanh(n, cNext, t[10]);
      ElementwiseKernels.sigmoid(n, t[3], t[11]);
      ElementwiseKernels.mul(n, t[10], t[11], hNext);
    };
    return new FusionCase("lstmCell", "B=" + b + " H=" + h, 4L * (4 * n + n + 2 * n), 11,
        FusionReport.reported(Blocks.class, "lstmCell"),
        () -> Blocks.lstmCell(b, h, gates, c, 1f, cRef, hRef), unfused,
        () -> BlocksKernels.lstmCell(b, h, gates, c, 1f, cNext, hNext), hRef, hNext);
  }

  static FusionCase ovl(int b, int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed + 1);
    float[] x = random(r, 2 * b * n, -1, 1);
    float[] y = random(r, b * n, -1, 1);
    float[] out = new float[2 * b * n];
    float[] ref = new float[2 * b * n];
    float[][] t = new float[5][b * n];
    Runnable unfused = () -> {
      LayoutKernels.split2(b, n, x, t[0], t[1]);
      ElementwiseKernels.add(b * n, t[0], y, t[2]);
      ElementwiseKernels.add(b * n, t[1], y, t[3]);
      ElementwiseKernels.mul(b * n, t[2], t[3], t[4]);
      LayoutKernels.concat2(b, n, t[2], t[4], out);
    };
    return new FusionCase("ovl", "B=" + b + " N=" + n, 4L * (2 * b * n + b * n + 2 * b * n), 5,
        FusionReport.reported(Blocks.class, "ovl"),
        () -> Blocks.ovl(b, n, x, y, ref), unfused, () -> BlocksKernels.ovl(b, n, x, y, out), ref, out);
  }

  static FusionCase softmax(int b, int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed + 2);
    float[] x = random(r, b * n, -5, 5);
    float[] y = new float[b * n];
    float[] ref = new float[b * n];
    float[] m = new float[b];
    float[] s = new float[b];
    float[] z = new float[b * n];
    float[] e = new float[b * n];
    Runnable unfused = () -> {
      RowsKernels.rowMax(b, n, x, m);
      RowsKernels.subRow(b, n, x, m, z);
      ElementwiseKernels.exp(b * n, z, e);
      RowsKernels.rowSum(b, n, e, s);
      RowsKernels.divRow(b, n, e, s, y);
    };
    return new FusionCase("softmax", "B=" + b + " N=" + n, 4L * 2 * b * n, 5,
        FusionReport.reported(Blocks.class, "softmax"),
        () -> Blocks.softmax(b, n, x, ref), unfused, () -> BlocksKernels.softmax(b, n, x, y), ref, y);
  }

  static FusionCase layerNorm(int b, int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed + 3);
    float[] x = random(r, b * n, -2, 2);
    float[] gamma = random(r, n, 0.5, 1.5);
    float[] beta = random(r, n, -0.5, 0.5);
    float[] y = new float[b * n];
    float[] ref = new float[b * n];
    float[] mean = new float[b];
    float[] variance = new float[b];
    float[] inv = new float[b];
    float[][] t = new float[4][b * n];
    Runnable unfused = () -> {
      RowsKernels.rowMean(b, n, x, mean);
      RowsKernels.subRow(b, n, x, mean, t[0]);
      ElementwiseKernels.square(b * n, t[0], t[1]);
      RowsKernels.rowMean(b, n, t[1], variance);
      BlocksKernels.inverseStd(b, variance, 1e-5f, inv);
      RowsKernels.mulRow(b, n, t[0], inv, t[2]);
      RowsKernels.mulCols(b, n, t[2], gamma, t[3]);
      RowsKernels.addCols(b, n, t[3], beta, y);
    };
    return new FusionCase("layerNorm", "B=" + b + " N=" + n, 4L * (2 * b * n + 2 * n), 8,
        FusionReport.reported(Blocks.class, "layerNorm"),
        () -> Blocks.layerNorm(b, n, x, gamma, beta, ref), unfused,
        () -> BlocksKernels.layerNorm(b, n, x, gamma, beta, y), ref, y);
  }
}
