package dev.kiln.sample;

import dev.kiln.lib.Elementwise;
import dev.kiln.lib.ElementwiseKernels;
import dev.kiln.lib.Layout;
import dev.kiln.lib.LayoutKernels;
import dev.kiln.lib.Rows;
import dev.kiln.lib.RowsKernels;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The backward passes of the fusion benchmark's four composites: Kiln's fused gradient launcher,
 * and the same vector-Jacobian product written by hand from the primitives' generated gradient
 * launchers (reverse order; forward temporaries recomputed first; a tensor read by two calls gets
 * the sum of both gradients through {@code ElementwiseKernels.add}). The forward outputs and the
 * upstream gradients are made once, before either runs.
 */
final class GradCases {
  private GradCases() {}

  static List<GradCase> all(int rows, int cols, long seed) {
    return List.of(lstmCell(rows, cols, seed), ovl(rows, cols, seed), softmax(rows, cols, seed),
        layerNorm(rows, cols, seed));
  }

  private static float[] random(SplittableRandom r, int n) {
    return FusionCases.random(r, n, -1, 1);
  }

  static GradCase lstmCell(int b, int h, long seed) {
    SplittableRandom r = new SplittableRandom(seed + 10);
    int n = b * h;
    float bias = 1f;
    float[] gates = FusionCases.random(r, 4 * n, -3, 3);
    float[] c = random(r, n);
    float[] cNext = new float[n];
    float[] hNext = new float[n];
    BlocksKernels.lstmCell(b, h, gates, c, bias, cNext, hNext);
    float[] dcNext = random(r, n);
    float[] dhNext = random(r, n);
    float[] dgates = new float[4 * n];
    float[] dc = new float[n];
    float[] dgatesRef = new float[4 * n];
    float[] dcRef = new float[n];
    // forward temporaries, recomputed: i j f o fb sf si tj keep write tc so
    float[] i = new float[n], j = new float[n], f = new float[n], o = new float[n], fb = new float[n];
    float[] sf = new float[n], si = new float[n], tj = new float[n], keep = new float[n], write = new float[n];
    float[] tc = new float[n], so = new float[n];
    // their gradients (cNext has two consumers: the caller, dcNext, and tanh#2)
    float[] gtc = new float[n], gso = new float[n], go = new float[n], gcnTanh = new float[n], gcn = new float[n];
    float[] gkeep = new float[n], gwrite = new float[n], gsi = new float[n], gtj = new float[n], gsf = new float[n];
    float[] gj = new float[n], gi = new float[n], gfb = new float[n], gf = new float[n];
    Class<?> ew = Elementwise.class;
    GradCase.Launches unfused = new GradCase.Launches()
        .call(Layout.class, "split4", () -> LayoutKernels.split4(b, h, gates, i, j, f, o))
        .call(ew, "addScalar", () -> ElementwiseKernels.addScalar(n, f, bias, fb))
        .call(ew, "sigmoid", () -> ElementwiseKernels.sigmoid(n, fb, sf))
        .call(ew, "sigmoid", () -> ElementwiseKernels.sigmoid(n, i, si))
        .call(ew, "tanh", () -> ElementwiseKernels.tanh(n, j, tj))
        .call(ew, "mul", () -> ElementwiseKernels.mul(n, c, sf, keep))
        .call(ew, "mul", () -> ElementwiseKernels.mul(n, si, tj, write))
        .call(ew, "tanh", () -> ElementwiseKernels.tanh(n, cNext, tc))
        .call(ew, "sigmoid", () -> ElementwiseKernels.sigmoid(n, o, so))
        // hNext = tc * so
        .call(ew, "mulGrad", () -> ElementwiseKernels.mulGrad(n, tc, so, hNext, dhNext, gtc, gso))
        .call(ew, "sigmoidGrad", () -> ElementwiseKernels.sigmoidGrad(n, o, so, gso, go))
        .call(ew, "tanhGrad", () -> ElementwiseKernels.tanhGrad(n, cNext, tc, gtc, gcnTanh))
        .call(ew, "add", () -> ElementwiseKernels.add(n, dcNext, gcnTanh, gcn))
        // cNext = keep + write
        .call(ew, "addGrad", () -> ElementwiseKernels.addGrad(n, keep, write, cNext, gcn, gkeep, gwrite))
        .call(ew, "mulGrad", () -> ElementwiseKernels.mulGrad(n, si, tj, write, gwrite, gsi, gtj))
        .call(ew, "mulGrad", () -> ElementwiseKernels.mulGrad(n, c, sf, keep, gkeep, dcRef, gsf))
        .call(ew, "tanhGrad", () -> ElementwiseKernels.tanhGrad(n, j, tj, gtj, gj))
        .call(ew, "sigmoidGrad", () -> ElementwiseKernels.sigmoidGrad(n, i, si, gsi, gi))
        .call(ew, "sigmoidGrad", () -> ElementwiseKernels.sigmoidGrad(n, fb, sf, gsf, gfb))
        .call(ew, "addScalarGrad", () -> ElementwiseKernels.addScalarGrad(n, f, bias, fb, gfb, gf))
        .call(Layout.class, "split4Grad", () -> LayoutKernels.split4Grad(b, h, gates, i, j, f, o, gi, gj, gf, go, dgatesRef));
    return new GradCase("lstmCell", "B=" + b + " H=" + h, 4L * 13 * n, unfused,
        FusionReport.reported(Blocks.class, "lstmCellGrad"),
        () -> BlocksKernels.lstmCellGrad(b, h, gates, c, bias, cNext, hNext, dcNext, dhNext, dgates, dc),
        List.of("dgates", "dc"), List.of(dgatesRef, dcRef), List.of(dgates, dc));
  }

  static GradCase ovl(int b, int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed + 11);
    int m = b * n;
    float[] x = random(r, 2 * m);
    float[] y = random(r, m);
    float[] out = new float[2 * m];
    BlocksKernels.ovl(b, n, x, y, out);
    float[] dout = random(r, 2 * m);
    float[] dx = new float[2 * m];
    float[] dy = new float[m];
    float[] dxRef = new float[2 * m];
    float[] dyRef = new float[m];
    float[] lo = new float[m], hi = new float[m], a = new float[m], bb = new float[m], p = new float[m];
    // a has two consumers (concat2, mul), y two (add#1, add#2)
    float[] gaConcat = new float[m], gp = new float[m], gaMul = new float[m], gb = new float[m], ga = new float[m];
    float[] ghi = new float[m], gyHi = new float[m], glo = new float[m], gyLo = new float[m];
    Class<?> ew = Elementwise.class;
    GradCase.Launches unfused = new GradCase.Launches()
        .call(Layout.class, "split2", () -> LayoutKernels.split2(b, n, x, lo, hi))
        .call(ew, "add", () -> ElementwiseKernels.add(m, lo, y, a))
        .call(ew, "add", () -> ElementwiseKernels.add(m, hi, y, bb))
        .call(ew, "mul", () -> ElementwiseKernels.mul(m, a, bb, p))
        // out = concat2(a, p)
        .call(Layout.class, "concat2Grad", () -> LayoutKernels.concat2Grad(b, n, a, p, out, dout, gaConcat, gp))
        .call(ew, "mulGrad", () -> ElementwiseKernels.mulGrad(m, a, bb, p, gp, gaMul, gb))
        .call(ew, "addGrad", () -> ElementwiseKernels.addGrad(m, hi, y, bb, gb, ghi, gyHi))
        .call(ew, "add", () -> ElementwiseKernels.add(m, gaConcat, gaMul, ga))
        .call(ew, "addGrad", () -> ElementwiseKernels.addGrad(m, lo, y, a, ga, glo, gyLo))
        .call(Layout.class, "split2Grad", () -> LayoutKernels.split2Grad(b, n, x, lo, hi, glo, ghi, dxRef))
        .call(ew, "add", () -> ElementwiseKernels.add(m, gyHi, gyLo, dyRef));
    return new GradCase("ovl", "B=" + b + " N=" + n, 4L * 8 * m, unfused, FusionReport.reported(Blocks.class, "ovlGrad"),
        () -> BlocksKernels.ovlGrad(b, n, x, y, out, dout, dx, dy),
        List.of("dx", "dy"), List.of(dxRef, dyRef), List.of(dx, dy));
  }

  static GradCase softmax(int b, int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed + 12);
    int m = b * n;
    float[] x = FusionCases.random(r, m, -5, 5);
    float[] y = new float[m];
    BlocksKernels.softmax(b, n, x, y);
    float[] dy = random(r, m);
    float[] dx = new float[m];
    float[] dxRef = new float[m];
    float[] rmax = new float[b], z = new float[m], e = new float[m], s = new float[b];
    // e has two consumers (rowSum, divRow), x two (rowMax, subRow)
    float[] geDiv = new float[m], gs = new float[b], geSum = new float[m], ge = new float[m], gz = new float[m];
    float[] gxSub = new float[m], gm = new float[b], gxMax = new float[m];
    Class<?> ew = Elementwise.class;
    Class<?> rows = Rows.class;
    GradCase.Launches unfused = new GradCase.Launches()
        .call(rows, "rowMax", () -> RowsKernels.rowMax(b, n, x, rmax))
        .call(rows, "subRow", () -> RowsKernels.subRow(b, n, x, rmax, z))
        .call(ew, "exp", () -> ElementwiseKernels.exp(m, z, e))
        .call(rows, "rowSum", () -> RowsKernels.rowSum(b, n, e, s))
        // y = divRow(e, s)
        .call(rows, "divRowGrad", () -> RowsKernels.divRowGrad(b, n, e, s, y, dy, geDiv, gs))
        .call(rows, "rowSumGrad", () -> RowsKernels.rowSumGrad(b, n, e, s, gs, geSum))
        .call(ew, "add", () -> ElementwiseKernels.add(m, geDiv, geSum, ge))
        .call(ew, "expGrad", () -> ElementwiseKernels.expGrad(m, z, e, ge, gz))
        .call(rows, "subRowGrad", () -> RowsKernels.subRowGrad(b, n, x, rmax, z, gz, gxSub, gm))
        .call(rows, "rowMaxGrad", () -> RowsKernels.rowMaxGrad(b, n, x, rmax, gm, gxMax))
        .call(ew, "add", () -> ElementwiseKernels.add(m, gxSub, gxMax, dxRef));
    return new GradCase("softmax", "B=" + b + " N=" + n, 4L * 3 * m, unfused,
        FusionReport.reported(Blocks.class, "softmaxGrad"), () -> BlocksKernels.softmaxGrad(b, n, x, y, dy, dx),
        List.of("dx"), List.of(dxRef), List.of(dx));
  }

  static GradCase layerNorm(int b, int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed + 13);
    int m = b * n;
    float eps = 1e-5f;
    float[] x = FusionCases.random(r, m, -2, 2);
    float[] gamma = FusionCases.random(r, n, 0.5, 1.5);
    float[] beta = FusionCases.random(r, n, -0.5, 0.5);
    float[] y = new float[m];
    BlocksKernels.layerNorm(b, n, x, gamma, beta, y);
    float[] dy = random(r, m);
    float[] dx = new float[m], dgamma = new float[n], dbeta = new float[n];
    float[] dxRef = new float[m], dgammaRef = new float[n], dbetaRef = new float[n];
    float[] mean = new float[b], d = new float[m], d2 = new float[m], variance = new float[b], inv = new float[b];
    float[] nrm = new float[m], scaled = new float[m];
    // d has two consumers (square, mulRow), x two (rowMean#1, subRow)
    float[] gscaled = new float[m], gn = new float[m], gdMul = new float[m], ginv = new float[b];
    float[] gvar = new float[b], gd2 = new float[m], gdSq = new float[m], gd = new float[m];
    float[] gxSub = new float[m], gmean = new float[b], gxMean = new float[m];
    Class<?> ew = Elementwise.class;
    Class<?> rows = Rows.class;
    GradCase.Launches unfused = new GradCase.Launches()
        .call(rows, "rowMean", () -> RowsKernels.rowMean(b, n, x, mean))
        .call(rows, "subRow", () -> RowsKernels.subRow(b, n, x, mean, d))
        .call(ew, "square", () -> ElementwiseKernels.square(m, d, d2))
        .call(rows, "rowMean", () -> RowsKernels.rowMean(b, n, d2, variance))
        .call(Blocks.class, "inverseStd", () -> BlocksKernels.inverseStd(b, variance, eps, inv))
        .call(rows, "mulRow", () -> RowsKernels.mulRow(b, n, d, inv, nrm))
        .call(rows, "mulCols", () -> RowsKernels.mulCols(b, n, nrm, gamma, scaled))
        // y = addCols(scaled, beta)
        .call(rows, "addColsGrad", () -> RowsKernels.addColsGrad(b, n, scaled, beta, y, dy, gscaled, dbetaRef))
        .call(rows, "mulColsGrad", () -> RowsKernels.mulColsGrad(b, n, nrm, gamma, scaled, gscaled, gn, dgammaRef))
        .call(rows, "mulRowGrad", () -> RowsKernels.mulRowGrad(b, n, d, inv, nrm, gn, gdMul, ginv))
        .call(Blocks.class, "inverseStdGrad", () -> BlocksKernels.inverseStdGrad(b, variance, eps, inv, ginv, gvar))
        .call(rows, "rowMeanGrad", () -> RowsKernels.rowMeanGrad(b, n, d2, variance, gvar, gd2))
        .call(ew, "squareGrad", () -> ElementwiseKernels.squareGrad(m, d, d2, gd2, gdSq))
        .call(ew, "add", () -> ElementwiseKernels.add(m, gdMul, gdSq, gd))
        .call(rows, "subRowGrad", () -> RowsKernels.subRowGrad(b, n, x, mean, d, gd, gxSub, gmean))
        .call(rows, "rowMeanGrad", () -> RowsKernels.rowMeanGrad(b, n, x, mean, gmean, gxMean))
        .call(ew, "add", () -> ElementwiseKernels.add(m, gxSub, gxMean, dxRef));
    return new GradCase("layerNorm", "B=" + b + " N=" + n, 4L * (3 * m + 3 * n), unfused,
        FusionReport.reported(Blocks.class, "layerNormGrad"),
        () -> BlocksKernels.layerNormGrad(b, n, x, gamma, beta, y, dy, dx, dgamma, dbeta),
        List.of("dx", "dgamma", "dbeta"), List.of(dxRef, dgammaRef, dbetaRef), List.of(dx, dgamma, dbeta));
  }
}
