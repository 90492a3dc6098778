package dev.kiln.sample;

import dev.kiln.runtime.Device;
import dev.kiln.runtime.FloatTensor;
import dev.kiln.runtime.Kiln;
import dev.kiln.runtime.cuda.CudaRuntime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The sample's training written once for any device: the same passes as {@link Training}, through
 * the launchers Kiln generated for {@link FloatTensor}s, which run on {@link Kiln#device()} (the CPU
 * kernels, or the CUDA kernels on the device's default stream; {@code -Dkiln.device=cpu|cuda}).
 * Every parameter, state and gradient is a tensor that stays where the kernels run: on a GPU
 * nothing is copied between host and device during training but the B row losses read back each
 * step (to print their mean) and the zeros that start each backward pass's cell-state gradient.
 *
 * <p>Starts from the parameters and targets of the {@link Training} it is given, so that the two
 * can train in lockstep and be compared.
 */
final class TensorTraining implements Trainer, AutoCloseable {
  private final LstmModel m;
  /** Where the launchers run, chosen once by {@link Kiln#device()}. */
  private final Device device;
  private final List<FloatTensor> tensors = new ArrayList<>();
  private final FloatTensor[] xs;
  private final FloatTensor target;
  private final FloatTensor[] hs;
  private final FloatTensor[] cs;
  /** Per step, what lstmStepSaving keeps for lstmStepGradSaved: [x | h] and the gate products. */
  private final FloatTensor[] xhs;
  private final FloatTensor[] gates;
  private final FloatTensor loss;
  private final FloatTensor dloss;
  private final FloatTensor dx;
  private final FloatTensor dtarget;
  private final FloatTensor dwStep;
  private final FloatTensor dbiasStep;
  private final FloatTensor dwOut;
  private final FloatTensor dbOut;
  private final float[] zeroState;
  private FloatTensor w;
  private FloatTensor bias;
  private FloatTensor wOut;
  private FloatTensor bOut;
  private FloatTensor wNext;
  private FloatTensor biasNext;
  private FloatTensor wOutNext;
  private FloatTensor bOutNext;
  private FloatTensor dh;
  private FloatTensor dhPrev;
  private FloatTensor dc;
  private FloatTensor dcPrev;
  private FloatTensor dw;
  private FloatTensor dbias;
  private FloatTensor dwSum;
  private FloatTensor dbiasSum;

  TensorTraining(LstmModel m, Training host) {
    this.m = m;
    this.device = Kiln.device();
    int b = m.batch;
    int h = m.hidden;
    xs = new FloatTensor[m.steps];
    for (int t = 0; t < m.steps; t++) {
      xs[t] = keep(FloatTensor.of(m.xs[t]));
    }
    target = keep(FloatTensor.of(host.target));
    hs = new FloatTensor[m.steps + 1];
    cs = new FloatTensor[m.steps + 1];
    for (int t = 0; t <= m.steps; t++) {
      hs[t] = zeros(b * h);
      cs[t] = zeros(b * h);
    }
    xhs = new FloatTensor[m.steps];
    gates = new FloatTensor[m.steps];
    for (int t = 0; t < m.steps; t++) {
      xhs[t] = zeros(b * (m.input + h));
      gates[t] = zeros(4 * b * h);
    }
    loss = zeros(b);
    float[] meanWeights = new float[b];
    Arrays.fill(meanWeights, 1f / b);  // d(mean loss) / d(row loss)
    dloss = keep(FloatTensor.of(meanWeights));
    dx = zeros(b * m.input);
    dtarget = zeros(b * m.classes);
    w = keep(FloatTensor.of(host.w));
    bias = keep(FloatTensor.of(host.bias));
    wOut = keep(FloatTensor.of(host.wOut));
    bOut = keep(FloatTensor.of(host.bOut));
    wNext = zeros(host.w.length);
    biasNext = zeros(host.bias.length);
    wOutNext = zeros(host.wOut.length);
    bOutNext = zeros(host.bOut.length);
    dwStep = zeros(host.w.length);
    dbiasStep = zeros(host.bias.length);
    dwOut = zeros(host.wOut.length);
    dbOut = zeros(host.bOut.length);
    zeroState = new float[b * h];
    dh = zeros(b * h);
    dhPrev = zeros(b * h);
    dc = zeros(b * h);
    dcPrev = zeros(b * h);
    dw = zeros(host.w.length);
    dbias = zeros(host.bias.length);
    dwSum = zeros(host.w.length);
    dbiasSum = zeros(host.bias.length);
  }

  private FloatTensor keep(FloatTensor t) {
    tensors.add(t);
    return t;
  }

  private FloatTensor zeros(int n) {
    return keep(FloatTensor.zeros(n));
  }

  /** The device the launchers run on. */
  Device device() {
    return device;
  }

  /** "the CPU", or the GPU's name. */
  String deviceName() {
    return device == Device.CUDA ? CudaRuntime.device().name() : "the CPU";
  }

  @Override
  public float forward() {
    for (int t = 0; t < m.steps; t++) {
      LstmOpsKernels.lstmStepSaving(m.batch, m.input, m.hidden, xs[t], hs[t], cs[t], w, bias,
          LstmModel.FORGET_BIAS, cs[t + 1], hs[t + 1], xhs[t], gates[t]);
    }
    LstmOpsKernels.classifierLoss(m.batch, m.hidden, m.classes, hs[m.steps], wOut, bOut, target, loss);
    double sum = 0;
    for (float v : loss.toArray()) {
      sum += v;
    }
    return (float) (sum / m.batch);
  }

  @Override
  public void backward() {
    int b = m.batch;
    int h = m.hidden;
    LstmOpsKernels.classifierLossGrad(b, h, m.classes, hs[m.steps], wOut, bOut, target, loss, dloss,
        dh, dwOut, dbOut, dtarget);
    dc.copyFrom(zeroState);  // the loss does not read the last cell state: its gradient starts at zero
    for (int t = m.steps - 1; t >= 0; t--) {
      boolean last = t == m.steps - 1;
      LstmOpsKernels.lstmStepGradSaved(b, m.input, h, xs[t], hs[t], cs[t], w, bias, LstmModel.FORGET_BIAS,
          cs[t + 1], hs[t + 1], xhs[t], gates[t], dc, dh, dx, dhPrev, dcPrev, last ? dw : dwStep,
          last ? dbias : dbiasStep);
      if (!last) {
        LstmOpsKernels.add(dw.length(), dw, dwStep, dwSum);
        LstmOpsKernels.add(dbias.length(), dbias, dbiasStep, dbiasSum);
        FloatTensor swap = dw;
        dw = dwSum;
        dwSum = swap;
        swap = dbias;
        dbias = dbiasSum;
        dbiasSum = swap;
      }
      FloatTensor swap = dh;
      dh = dhPrev;
      dhPrev = swap;
      swap = dc;
      dc = dcPrev;
      dcPrev = swap;
    }
  }

  @Override
  public void update() {
    LstmOpsKernels.sgd(w.length(), w, dw, Training.LEARNING_RATE, wNext);
    LstmOpsKernels.sgd(bias.length(), bias, dbias, Training.LEARNING_RATE, biasNext);
    LstmOpsKernels.sgd(wOut.length(), wOut, dwOut, Training.LEARNING_RATE, wOutNext);
    LstmOpsKernels.sgd(bOut.length(), bOut, dbOut, Training.LEARNING_RATE, bOutNext);
    FloatTensor swap = w;
    w = wNext;
    wNext = swap;
    swap = bias;
    bias = biasNext;
    biasNext = swap;
    swap = wOut;
    wOut = wOutNext;
    wOutNext = swap;
    swap = bOut;
    bOut = bOutNext;
    bOutNext = swap;
  }

  /** The current parameters (w, bias, wOut, bOut), copied to the host. */
  float[][] parameters() {
    return new float[][] {w.toArray(), bias.toArray(), wOut.toArray(), bOut.toArray()};
  }

  /** Kernel launches on the GPU since {@link #resetStats} (0 on the CPU, which does not count them). */
  long launches() {
    return device == Device.CUDA ? CudaRuntime.device().stats().launches() : 0;
  }

  void resetStats() {
    if (device == Device.CUDA) {
      CudaRuntime.device().resetStats();
    }
  }

  @Override
  public void finish() {
    if (device == Device.CUDA) {
      CudaRuntime.device().defaultStream().synchronize();
    }
  }

  /** Frees every tensor's device copy, each even when freeing another fails (the first failure is thrown). */
  @Override
  public void close() {
    RuntimeException failure = null;
    for (FloatTensor t : tensors) {
      try {
        t.close();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
