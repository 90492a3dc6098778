package dev.kiln.bench;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import ai.djl.nn.norm.LayerNorm;
import ai.djl.training.GradientCollector;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The side-by-side cases: per case a {@code kiln} benchmark (the generated launcher on float
 * arrays) and a {@code torch} one (DJL's PyTorch engine, eager, op by op, on NDArrays made once;
 * each invocation's results are freed with it). Backward cases run the forward pass and the
 * gradient: Kiln's derived {@code <op>Grad} launcher, PyTorch's autograd.
 */
public final class Cases {
  private Cases() {}

  /** What every case shares: JMH's settings and the NDManager. */
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  @Warmup(iterations = 8, time = 1000, timeUnit = TimeUnit.MILLISECONDS)
  @Measurement(iterations = 5, time = 400, timeUnit = TimeUnit.MILLISECONDS)
  @Fork(value = 1, jvmArgsAppend = {"-Dai.djl.offline=true"})
  @State(Scope.Benchmark)
  public abstract static class Base implements Case {
    NDManager manager;

    @Setup
    public void setUp() {
      manager = NDManager.newBaseManager();
      prepare();
    }

    abstract void prepare();

    @TearDown
    public void tearDown() {
      close();
    }

    @Override
    public void close() {
      if (manager != null) {
        manager.close();
        manager = null;
      }
    }

    NDManager sub(NDArray... inputs) {
      NDManager sub = manager.newSubManager();
      Data.attach(sub, inputs);
      return sub;
    }
  }

  /** Dense layer {@code relu(x w + bias)}: Kiln's natural loop (a GEMM leaf and its epilogue); 512 x 1024 x 1024. */
  public static class Dense extends Base {
    int b = 512;
    int k = 1024;
    int n = 1024;
    float[] x;
    float[] w;
    float[] bias;
    float[] y;
    NDArray tx;
    NDArray tw;
    NDArray tb;

    @Override
    void prepare() {
      x = Data.random(1, b * k, 1f);
      w = Data.random(2, k * n, 0.05f);
      bias = Data.random(3, n, 0.1f);
      y = new float[b * n];
      tx = Data.nd(manager, x, b, k);
      tw = Data.nd(manager, w, k, n);
      tb = Data.nd(manager, bias, n);
    }

    @Benchmark
    public float[] kiln() {
      BenchOpsKernels.denseRelu(b, k, n, x, w, bias, y);
      return y;
    }

    @Benchmark
    public void torch() {
      try (NDManager s = sub(tx, tw, tb)) {
        Activation.relu(tx.matMul(tw).add(tb));
      }
    }

    @Override
    public float[][] kilnResult() {
      return new float[][] {kiln().clone()};
    }

    @Override
    public float[][] torchResult() {
      try (NDManager s = sub(tx, tw, tb)) {
        return new float[][] {Activation.relu(tx.matMul(tw).add(tb)).toFloatArray()};
      }
    }

    @Override
    public double flops() {
      return 2.0 * b * k * n;
    }

    @Override
    public double bytes() {
      return 4.0 * (b * k + k * n + n + b * n);
    }
  }

  /** The dense layer at 2048 x 2048 x 2048. */
  public static class DenseLarge extends Dense {
    @Override
    void prepare() {
      b = 2048;
      k = 2048;
      n = 2048;
      super.prepare();
    }
  }

  /** The gradient of {@code y = x w}: {@code dx = dy w^T}, {@code dw = x^T dy}. */
  public static class MatmulGrad extends Base {
    final int b = 512;
    final int k = 1024;
    final int n = 1024;
    float[] x;
    float[] w;
    float[] y;
    float[] dy;
    float[] dx;
    float[] dw;
    NDArray tx;
    NDArray tw;
    NDArray tdy;

    @Override
    void prepare() {
      x = Data.random(4, b * k, 1f);
      w = Data.random(5, k * n, 0.05f);
      dy = Data.random(6, b * n, 1f);
      y = new float[b * n];
      dx = new float[b * k];
      dw = new float[k * n];
      BenchOpsKernels.matmul(b, k, n, x, w, y);
      tx = Data.nd(manager, x, b, k);
      tw = Data.nd(manager, w, k, n);
      tdy = Data.nd(manager, dy, b, n);
    }

    @Benchmark
    public float[] kiln() {
      BenchOpsKernels.matmulGrad(b, k, n, x, w, y, dy, dx, dw);
      return dw;
    }

    @Benchmark
    public void torch() {
      try (NDManager s = sub(tx, tw, tdy)) {
        tdy.matMul(tw.transpose());
        tx.transpose().matMul(tdy);
      }
    }

    @Override
    public float[][] kilnResult() {
      kiln();
      return new float[][] {dx.clone(), dw.clone()};
    }

    @Override
    public float[][] torchResult() {
      try (NDManager s = sub(tx, tw, tdy)) {
        return new float[][] {tdy.matMul(tw.transpose()).toFloatArray(), tx.transpose().matMul(tdy).toFloatArray()};
      }
    }

    @Override
    public double flops() {
      return 4.0 * b * k * n;
    }

    @Override
    public double bytes() {
      return 4.0 * 2 * (b * k + k * n + b * n);
    }
  }

  /** One LSTM step's data (B = 256, I = 256, H = 512): gates {@code x wx + h wh + bias}, then the cell. */
  public abstract static class LstmStepData extends Base {
    final int b = 256;
    final int in = 256;
    final int h = 512;
    float[] x;
    float[] hs;
    float[] c;
    float[] wx;
    float[] wh;
    float[] bias;
    float[] cn;
    float[] hn;
    float[] dcn;
    float[] dhn;
    float[] dx;
    float[] dh;
    float[] dc;
    float[] dwx;
    float[] dwh;
    float[] dbias;
    NDArray tx;
    NDArray th;
    NDArray tc;
    NDArray twx;
    NDArray twh;
    NDArray tbias;
    NDArray tdcn;
    NDArray tdhn;

    @Override
    void prepare() {
      x = Data.random(7, b * in, 1f);
      hs = Data.random(8, b * h, 1f);
      c = Data.random(9, b * h, 1f);
      wx = Data.random(10, in * 4 * h, 0.05f);
      wh = Data.random(11, h * 4 * h, 0.05f);
      bias = Data.random(12, 4 * h, 0.1f);
      dcn = Data.random(13, b * h, 1f);
      dhn = Data.random(14, b * h, 1f);
      cn = new float[b * h];
      hn = new float[b * h];
      dx = new float[b * in];
      dh = new float[b * h];
      dc = new float[b * h];
      dwx = new float[in * 4 * h];
      dwh = new float[h * 4 * h];
      dbias = new float[4 * h];
      tx = Data.nd(manager, x, b, in);
      th = Data.nd(manager, hs, b, h);
      tc = Data.nd(manager, c, b, h);
      twx = Data.nd(manager, wx, in, 4 * h);
      twh = Data.nd(manager, wh, h, 4 * h);
      tbias = Data.nd(manager, bias, 4 * h);
      tdcn = Data.nd(manager, dcn, b, h);
      tdhn = Data.nd(manager, dhn, b, h);
    }

    /** PyTorch's step: two products, then the cell op by op; returns {cNext, hNext}. */
    NDArray[] torchStep() {
      NDArray g = tx.matMul(twx).add(th.matMul(twh)).add(tbias);
      return TorchCell.cell(g, tc, h);
    }

    @Override
    public double flops() {
      return 2.0 * b * (in + h) * 4 * h;
    }

    @Override
    public double bytes() {
      return 4.0 * (b * in + 3 * b * h + (in + h) * 4 * h + 4 * h + 2 * b * h);
    }
  }

  /** One LSTM step, forward. */
  public static class LstmStep extends LstmStepData {
    @Benchmark
    public float[] kiln() {
      BenchOpsKernels.lstmStep(b, in, h, x, hs, c, wx, wh, bias, cn, hn);
      return hn;
    }

    @Benchmark
    public void torch() {
      try (NDManager s = sub(tx, th, tc, twx, twh, tbias)) {
        torchStep();
      }
    }

    @Override
    public float[][] kilnResult() {
      kiln();
      return new float[][] {cn.clone(), hn.clone()};
    }

    @Override
    public float[][] torchResult() {
      try (NDManager s = sub(tx, th, tc, twx, twh, tbias)) {
        NDArray[] o = torchStep();
        return new float[][] {o[0].toFloatArray(), o[1].toFloatArray()};
      }
    }

  }

  /** One LSTM step, forward and backward (the gradients of every input and weight). */
  public static class LstmStepTrain extends LstmStepData {
    @Override
    void prepare() {
      super.prepare();
      for (NDArray a : new NDArray[] {tx, th, tc, twx, twh, tbias}) {
        a.setRequiresGradient(true);
      }
    }

    /** The gate products the forward pass stores, kept for the backward pass (lstmStepSaving / lstmStepGradSaved). */
    float[] gates;

    @Benchmark
    public float[] kiln() {
      if (gates == null) {
        gates = new float[b * 4 * h];
      }
      BenchOpsKernels.lstmStepSaving(b, in, h, x, hs, c, wx, wh, bias, cn, hn, gates);
      BenchOpsKernels.lstmStepGradSaved(b, in, h, x, hs, c, wx, wh, bias, cn, hn, gates, dcn, dhn, dx, dh, dc, dwx, dwh,
          dbias);
      return dwx;
    }

    @Benchmark
    public void torch() {
      try (NDManager s = sub(tx, th, tc, twx, twh, tbias, tdcn, tdhn);
          GradientCollector gc = Engine.getInstance().newGradientCollector()) {
        NDArray[] o = torchStep();
        gc.backward(o[0].mul(tdcn).sum().add(o[1].mul(tdhn).sum()));
      }
    }

    @Override
    public float[][] kilnResult() {
      kiln();
      return new float[][] {dx.clone(), dh.clone(), dc.clone(), dwx.clone(), dwh.clone(), dbias.clone()};
    }

    @Override
    public float[][] torchResult() {
      try (NDManager s = sub(tx, th, tc, twx, twh, tbias, tdcn, tdhn);
          GradientCollector gc = Engine.getInstance().newGradientCollector()) {
        NDArray[] o = torchStep();
        gc.backward(o[0].mul(tdcn).sum().add(o[1].mul(tdhn).sum()));
        return new float[][] {tx.getGradient().toFloatArray(), th.getGradient().toFloatArray(),
            tc.getGradient().toFloatArray(), twx.getGradient().toFloatArray(), twh.getGradient().toFloatArray(),
            tbias.getGradient().toFloatArray()};
      }
    }

    @Override
    public double flops() {
      return 3 * 2.0 * b * (in + h) * 4 * h; // the forward products and the backward's two (dx, dh; dwx, dwh)
    }
  }

  /** The LSTM cell's data (B = 1024, H = 1024): memory and exp/tanh bound. */
  public abstract static class LstmCellData extends Base {
    final int b = 1024;
    final int h = 1024;
    float[] gates;
    float[] c;
    float[] cn;
    float[] hn;
    float[] dcn;
    float[] dhn;
    float[] dgates;
    float[] dc;
    NDArray tg;
    NDArray tc;
    NDArray tdcn;
    NDArray tdhn;

    @Override
    void prepare() {
      gates = Data.random(15, b * 4 * h, 3f);
      c = Data.random(16, b * h, 1f);
      dcn = Data.random(17, b * h, 1f);
      dhn = Data.random(18, b * h, 1f);
      cn = new float[b * h];
      hn = new float[b * h];
      dgates = new float[b * 4 * h];
      dc = new float[b * h];
      tg = Data.nd(manager, gates, b, 4 * h);
      tc = Data.nd(manager, c, b, h);
      tdcn = Data.nd(manager, dcn, b, h);
      tdhn = Data.nd(manager, dhn, b, h);
    }

    @Override
    public double flops() {
      return 0;
    }

    @Override
    public double bytes() {
      return 4.0 * (4 * b * h + 3 * b * h);
    }
  }

  /** The LSTM cell, forward. */
  public static class LstmCell extends LstmCellData {
    @Benchmark
    public float[] kiln() {
      BenchOpsKernels.lstmCell(b, h, gates, c, cn, hn);
      return hn;
    }

    @Benchmark
    public void torch() {
      try (NDManager s = sub(tg, tc)) {
        TorchCell.cell(tg, tc, h);
      }
    }

    @Override
    public float[][] kilnResult() {
      kiln();
      return new float[][] {cn.clone(), hn.clone()};
    }

    @Override
    public float[][] torchResult() {
      try (NDManager s = sub(tg, tc)) {
        NDArray[] o = TorchCell.cell(tg, tc, h);
        return new float[][] {o[0].toFloatArray(), o[1].toFloatArray()};
      }
    }

  }

  /** The LSTM cell forward and backward. */
  public static class LstmCellTrain extends LstmCellData {
    @Override
    void prepare() {
      super.prepare();
      tg.setRequiresGradient(true);
      tc.setRequiresGradient(true);
    }

    @Benchmark
    public float[] kiln() {
      BenchOpsKernels.lstmCell(b, h, gates, c, cn, hn);
      BenchOpsKernels.lstmCellGrad(b, h, gates, c, cn, hn, dcn, dhn, dgates, dc);
      return dgates;
    }

    @Benchmark
    public void torch() {
      try (NDManager s = sub(tg, tc, tdcn, tdhn); GradientCollector gc = Engine.getInstance().newGradientCollector()) {
        NDArray[] o = TorchCell.cell(tg, tc, h);
        gc.backward(o[0].mul(tdcn).sum().add(o[1].mul(tdhn).sum()));
      }
    }

    @Override
    public float[][] kilnResult() {
      kiln();
      return new float[][] {dgates.clone(), dc.clone()};
    }

    @Override
    public float[][] torchResult() {
      try (NDManager s = sub(tg, tc, tdcn, tdhn); GradientCollector gc = Engine.getInstance().newGradientCollector()) {
        NDArray[] o = TorchCell.cell(tg, tc, h);
        gc.backward(o[0].mul(tdcn).sum().add(o[1].mul(tdhn).sum()));
        return new float[][] {tg.getGradient().toFloatArray(), tc.getGradient().toFloatArray()};
      }
    }

    @Override
    public double bytes() {
      return 4.0 * (4 * b * h + 5 * b * h + 4 * b * h + b * h);
    }
  }

  /**
   * Causal self-attention of one head, B = 16 sequences of T = 512 positions, D = 64: the scores
   * ({@code [B, T, T]}, 16 MB), their row softmax, the weighted values. PyTorch: {@code matmul}, a
   * {@code -inf} mask added, {@code softmax}, {@code matmul}.
   */
  public abstract static class AttentionData extends Base {
    final int b = 16;
    final int t = 512;
    final int d = 64;
    float[] q;
    float[] k;
    float[] v;
    float[] out;
    NDArray tq;
    NDArray tk;
    NDArray tv;
    NDArray mask;

    @Override
    void prepare() {
      q = Data.random(40, b * t * d, 1f);
      k = Data.random(41, b * t * d, 1f);
      v = Data.random(42, b * t * d, 1f);
      out = new float[b * t * d];
      tq = Data.nd(manager, q, b, t, d);
      tk = Data.nd(manager, k, b, t, d);
      tv = Data.nd(manager, v, b, t, d);
      float[] m = new float[t * t];
      for (int i = 0; i < t; i++) {
        for (int j = i + 1; j < t; j++) {
          m[i * t + j] = Float.NEGATIVE_INFINITY;
        }
      }
      mask = Data.nd(manager, m, t, t);
    }

    NDArray torchAttention() {
      NDArray scores = tq.matMul(tk.transpose(0, 2, 1)).div((float) Math.sqrt(d)).add(mask);
      return scores.softmax(-1).matMul(tv);
    }

    @Override
    public double flops() {
      return 2 * 2.0 * b * t * t * d;
    }

    @Override
    public double bytes() {
      return 4.0 * (4 * b * t * d + 2 * b * t * t);
    }
  }

  /** Causal attention, forward. */
  public static class Attention extends AttentionData {
    @Benchmark
    public float[] kiln() {
      BenchOpsKernels.causalAttention(b, t, d, q, k, v, out);
      return out;
    }

    @Benchmark
    public void torch() {
      try (NDManager s = sub(tq, tk, tv, mask)) {
        torchAttention();
      }
    }

    @Override
    public float[][] kilnResult() {
      return new float[][] {kiln().clone()};
    }

    @Override
    public float[][] torchResult() {
      try (NDManager s = sub(tq, tk, tv, mask)) {
        return new float[][] {torchAttention().toFloatArray()};
      }
    }
  }

  /**
   * Causal attention, forward and backward: Kiln's training forms ({@code causalAttentionSaving}
   * keeps the scores, weights and the softmax's row statistics; {@code causalAttentionGradSaved}),
   * PyTorch's autograd.
   */
  public static class AttentionTrain extends AttentionData {
    float[] dout;
    float[] dq;
    float[] dk;
    float[] dv;
    float[] scores;
    float[] weights;
    float[] rowMax;
    float[] rowSum;
    NDArray tdout;

    @Override
    void prepare() {
      super.prepare();
      dout = Data.random(43, b * t * d, 1f);
      dq = new float[b * t * d];
      dk = new float[b * t * d];
      dv = new float[b * t * d];
      scores = new float[b * t * t];
      weights = new float[b * t * t];
      rowMax = new float[b * t];
      rowSum = new float[b * t];
      tdout = Data.nd(manager, dout, b, t, d);
      for (NDArray a : new NDArray[] {tq, tk, tv}) {
        a.setRequiresGradient(true);
      }
    }

    @Benchmark
    public float[] kiln() {
      BenchOpsKernels.causalAttentionSaving(b, t, d, q, k, v, out, scores, weights, rowMax, rowSum);
      BenchOpsKernels.causalAttentionGradSaved(b, t, d, q, k, v, out, scores, weights, rowMax, rowSum, dout, dq, dk, dv);
      return dq;
    }

    @Benchmark
    public void torch() {
      try (NDManager s = sub(tq, tk, tv, mask, tdout); GradientCollector gc = Engine.getInstance().newGradientCollector()) {
        gc.backward(torchAttention().mul(tdout).sum());
      }
    }

    @Override
    public float[][] kilnResult() {
      kiln();
      return new float[][] {dq.clone(), dk.clone(), dv.clone()};
    }

    @Override
    public float[][] torchResult() {
      try (NDManager s = sub(tq, tk, tv, mask, tdout); GradientCollector gc = Engine.getInstance().newGradientCollector()) {
        gc.backward(torchAttention().mul(tdout).sum());
        return new float[][] {tq.getGradient().toFloatArray(), tk.getGradient().toFloatArray(),
            tv.getGradient().toFloatArray()};
      }
    }

    @Override
    public double flops() {
      return 3 * super.flops(); // the forward products, then four in the backward pass
    }
  }

  /** A row-wise unary case over [2048, 2048]: softmax, layer norm; with its backward pass when training. */
  public abstract static class Rows extends Base {
    final int b = 2048;
    final int n = 2048;
    float[] x;
    float[] y;
    float[] dy;
    float[] dx;
    NDArray tx;
    NDArray tdy;

    @Override
    void prepare() {
      x = Data.random(19, b * n, 4f);
      dy = Data.random(20, b * n, 1f);
      y = new float[b * n];
      dx = new float[b * n];
      tx = Data.nd(manager, x, b, n);
      tdy = Data.nd(manager, dy, b, n);
    }

    @Override
    public double flops() {
      return 0;
    }

    @Override
    public double bytes() {
      return 8.0 * b * n;
    }
  }

  /** Row softmax, forward. */
  public static class Softmax extends Rows {
    @Benchmark
    public float[] kiln() {
      BenchOpsKernels.softmax(b, n, x, y);
      return y;
    }

    @Benchmark
    public void torch() {
      try (NDManager s = sub(tx)) {
        tx.softmax(1);
      }
    }

    @Override
    public float[][] kilnResult() {
      return new float[][] {kiln().clone()};
    }

    @Override
    public float[][] torchResult() {
      try (NDManager s = sub(tx)) {
        return new float[][] {tx.softmax(1).toFloatArray()};
      }
    }
  }

  /** Row softmax, forward and backward. */
  public static class SoftmaxTrain extends Rows {
    @Override
    void prepare() {
      super.prepare();
      tx.setRequiresGradient(true);
    }

    /** Each row's maximum and sum of exponentials, which the forward pass saves for the backward (softmaxSaving / softmaxGradSaved). */
    float[] rowMax;
    float[] rowSum;

    @Benchmark
    public float[] kiln() {
      if (rowMax == null) {
        rowMax = new float[b];
        rowSum = new float[b];
      }
      BenchOpsKernels.softmaxSaving(b, n, x, y, rowMax, rowSum);
      BenchOpsKernels.softmaxGradSaved(b, n, x, y, rowMax, rowSum, dy, dx);
      return dx;
    }

    @Benchmark
    public void torch() {
      try (NDManager s = sub(tx, tdy); GradientCollector gc = Engine.getInstance().newGradientCollector()) {
        gc.backward(tx.softmax(1).mul(tdy).sum());
      }
    }

    @Override
    public float[][] kilnResult() {
      return new float[][] {kiln().clone()};
    }

    @Override
    public float[][] torchResult() {
      try (NDManager s = sub(tx, tdy); GradientCollector gc = Engine.getInstance().newGradientCollector()) {
        gc.backward(tx.softmax(1).mul(tdy).sum());
        return new float[][] {tx.getGradient().toFloatArray()};
      }
    }

    @Override
    public double bytes() {
      return 4.0 * 5 * b * n;
    }
  }

  /** Layer norm's data: rows with a scale and a shift. */
  public abstract static class LayerNormData extends Rows {
    float[] gamma;
    float[] beta;
    NDArray tgamma;
    NDArray tbeta;

    @Override
    void prepare() {
      super.prepare();
      gamma = Data.random(21, n, 1f);
      beta = Data.random(22, n, 1f);
      tgamma = Data.nd(manager, gamma, n);
      tbeta = Data.nd(manager, beta, n);
    }

    NDArray torchNorm() {
      return LayerNorm.layerNorm(tx, new Shape(n), tgamma, tbeta, 1e-5f).singletonOrThrow();
    }

  }

  /** Layer norm over rows with scale and shift, forward. */
  public static class LayerNormFwd extends LayerNormData {
    @Benchmark
    public float[] kiln() {
      BenchOpsKernels.layerNorm(b, n, x, gamma, beta, y);
      return y;
    }

    @Benchmark
    public void torch() {
      try (NDManager s = sub(tx, tgamma, tbeta)) {
        torchNorm();
      }
    }

    @Override
    public float[][] kilnResult() {
      return new float[][] {kiln().clone()};
    }

    @Override
    public float[][] torchResult() {
      try (NDManager s = sub(tx, tgamma, tbeta)) {
        return new float[][] {torchNorm().toFloatArray()};
      }
    }
  }

  /** Layer norm forward and backward (gradients of x, the scale and the shift). */
  public static class LayerNormTrain extends LayerNormData {
    float[] dgamma;
    float[] dbeta;

    @Override
    void prepare() {
      super.prepare();
      dgamma = new float[n];
      dbeta = new float[n];
      tx.setRequiresGradient(true);
      tgamma.setRequiresGradient(true);
      tbeta.setRequiresGradient(true);
    }

    /** Each row's sum and sum of squared deviations, which the forward pass saves for the backward (layerNormSaving / layerNormGradSaved). */
    float[] rowSum;
    float[] rowSquares;

    @Benchmark
    public float[] kiln() {
      if (rowSum == null) {
        rowSum = new float[b];
        rowSquares = new float[b];
      }
      BenchOpsKernels.layerNormSaving(b, n, x, gamma, beta, y, rowSum, rowSquares);
      BenchOpsKernels.layerNormGradSaved(b, n, x, gamma, beta, y, rowSum, rowSquares, dy, dx, dgamma, dbeta);
      return dx;
    }

    @Benchmark
    public void torch() {
      try (NDManager s = sub(tx, tgamma, tbeta, tdy); GradientCollector gc = Engine.getInstance().newGradientCollector()) {
        gc.backward(torchNorm().mul(tdy).sum());
      }
    }

    @Override
    public float[][] kilnResult() {
      kiln();
      return new float[][] {dx.clone(), dgamma.clone(), dbeta.clone()};
    }

    @Override
    public float[][] torchResult() {
      try (NDManager s = sub(tx, tgamma, tbeta, tdy); GradientCollector gc = Engine.getInstance().newGradientCollector()) {
        gc.backward(torchNorm().mul(tdy).sum());
        return new float[][] {tx.getGradient().toFloatArray(), tgamma.getGradient().toFloatArray(),
            tbeta.getGradient().toFloatArray()};
      }
    }

    @Override
    public double bytes() {
      return 4.0 * 5 * b * n;
    }
  }

  /** A 4M-element elementwise case: GELU with erf, add + relu. */
  public abstract static class Map4M extends Base {
    final int n = 1 << 22;
    float[] x;
    float[] y;
    NDArray tx;

    @Override
    void prepare() {
      x = Data.random(23, n, 3f);
      y = new float[n];
      tx = Data.nd(manager, x, n);
    }

    @Override
    public double flops() {
      return 0;
    }

    @Override
    public double bytes() {
      return 8.0 * n;
    }
  }

  /** GELU (erf), forward. */
  public static class Gelu extends Map4M {
    @Benchmark
    public float[] kiln() {
      BenchOpsKernels.gelu(n, x, y);
      return y;
    }

    @Benchmark
    public void torch() {
      try (NDManager s = sub(tx)) {
        Activation.gelu(tx);
      }
    }

    @Override
    public float[][] kilnResult() {
      return new float[][] {kiln().clone()};
    }

    @Override
    public float[][] torchResult() {
      try (NDManager s = sub(tx)) {
        return new float[][] {Activation.gelu(tx).toFloatArray()};
      }
    }
  }

  /** GELU forward and backward. */
  public static class GeluTrain extends Map4M {
    float[] dy;
    float[] dx;
    NDArray tdy;

    @Override
    void prepare() {
      super.prepare();
      dy = Data.random(24, n, 1f);
      dx = new float[n];
      tdy = Data.nd(manager, dy, n);
      tx.setRequiresGradient(true);
    }

    @Benchmark
    public float[] kiln() {
      BenchOpsKernels.gelu(n, x, y);
      BenchOpsKernels.geluGrad(n, x, y, dy, dx);
      return dx;
    }

    @Benchmark
    public void torch() {
      try (NDManager s = sub(tx, tdy); GradientCollector gc = Engine.getInstance().newGradientCollector()) {
        gc.backward(Activation.gelu(tx).mul(tdy).sum());
      }
    }

    @Override
    public float[][] kilnResult() {
      return new float[][] {kiln().clone()};
    }

    @Override
    public float[][] torchResult() {
      try (NDManager s = sub(tx, tdy); GradientCollector gc = Engine.getInstance().newGradientCollector()) {
        gc.backward(Activation.gelu(tx).mul(tdy).sum());
        return new float[][] {tx.getGradient().toFloatArray()};
      }
    }

    @Override
    public double bytes() {
      return 4.0 * 5 * n;
    }
  }

  /**
   * OVL's example, forward: {@code x [2048, 2048]} split into halves, {@code y [2048, 1024]} added
   * to each, their product, concatenated with the first sum (Kiln: five operators fused into one
   * kernel; PyTorch: two slices, two adds, a multiply, a concatenation). Memory bound: 40 MB.
   */
  public static class Ovl extends Base {
    final int b = 2048;
    final int n = 1024;
    float[] x;
    float[] y;
    float[] out;
    NDArray tx;
    NDArray ty;

    @Override
    void prepare() {
      x = Data.random(31, b * 2 * n, 2f);
      y = Data.random(32, b * n, 2f);
      out = new float[b * 2 * n];
      tx = Data.nd(manager, x, b, 2 * n);
      ty = Data.nd(manager, y, b, n);
    }

    @Benchmark
    public float[] kiln() {
      BenchOpsKernels.ovl(b, n, x, y, out);
      return out;
    }

    @Benchmark
    public void torch() {
      try (NDManager s = sub(tx, ty)) {
        torchOvl();
      }
    }

    private NDArray torchOvl() {
      NDArray a = tx.get(":, :" + n).add(ty);
      NDArray p = a.mul(tx.get(":, " + n + ":").add(ty));
      return a.concat(p, 1);
    }

    @Override
    public float[][] kilnResult() {
      return new float[][] {kiln().clone()};
    }

    @Override
    public float[][] torchResult() {
      try (NDManager s = sub(tx, ty)) {
        return new float[][] {torchOvl().toFloatArray()};
      }
    }

    @Override
    public double flops() {
      return 0;
    }

    @Override
    public double bytes() {
      return 4.0 * (2.0 * b * n + b * n + 2.0 * b * n);
    }
  }

  /** relu(a + b), forward: memory bound. */
  public static class AddRelu extends Map4M {
    float[] b2;
    NDArray tb;

    @Override
    void prepare() {
      super.prepare();
      b2 = Data.random(25, n, 3f);
      tb = Data.nd(manager, b2, n);
    }

    @Benchmark
    public float[] kiln() {
      BenchOpsKernels.addRelu(n, x, b2, y);
      return y;
    }

    @Benchmark
    public void torch() {
      try (NDManager s = sub(tx, tb)) {
        Activation.relu(tx.add(tb));
      }
    }

    @Override
    public float[][] kilnResult() {
      return new float[][] {kiln().clone()};
    }

    @Override
    public float[][] torchResult() {
      try (NDManager s = sub(tx, tb)) {
        return new float[][] {Activation.relu(tx.add(tb)).toFloatArray()};
      }
    }

    @Override
    public double bytes() {
      return 12.0 * n;
    }
  }

  /**
   * The machine's bound: a streaming copy of 16 MB into another 16 MB (System.arraycopy), on one
   * thread ({@link #copy}) and cut over Kiln's pool, one part a thread ({@link #copyAllThreads}):
   * Kiln's kernels use every core, and on the 2-core machine two threads stream about twice one's
   * rate.
   */
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  @Warmup(iterations = 8, time = 1000, timeUnit = TimeUnit.MILLISECONDS)
  @Measurement(iterations = 5, time = 400, timeUnit = TimeUnit.MILLISECONDS)
  @Fork(1)
  @State(Scope.Benchmark)
  public static class Copy {
    static final int N = 1 << 22;
    final float[] from = Data.random(26, N, 1f);
    final float[] to = new float[N];

    @Benchmark
    public float[] copy() {
      System.arraycopy(from, 0, to, 0, N);
      return to;
    }

    @Benchmark
    public float[] copyAllThreads() {
      dev.kiln.runtime.cpu.CpuExecutor.forEachChunk(N, dev.kiln.runtime.cpu.CpuExecutor.threads(),
          (chunk, lo, hi) -> System.arraycopy(from, lo, to, lo, hi - lo));
      return to;
    }
  }

  /** PyTorch's LSTM cell, op by op, on gates [i | j | f | o]; returns {cNext, hNext}. */
  static final class TorchCell {
    private TorchCell() {}

    static NDArray[] cell(NDArray g, NDArray c, int h) {
      NDList parts = g.split(4, 1);
      NDArray i = Activation.sigmoid(parts.get(0));
      NDArray j = parts.get(1).tanh();
      NDArray f = Activation.sigmoid(parts.get(2).add(1f));
      NDArray o = Activation.sigmoid(parts.get(3));
      NDArray cn = c.mul(f).add(i.mul(j));
      return new NDArray[] {cn, cn.tanh().mul(o)};
    }
  }
}
