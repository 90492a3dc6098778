package dev.kiln.sample;

import dev.kiln.runtime.cuda.CudaDevice;
import dev.kiln.runtime.cuda.CudaRuntime;
import dev.kiln.runtime.cuda.CudaStream;
import dev.kiln.runtime.cuda.DeviceFloatArray;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link Training} on the GPU: the same passes through the device launchers Kiln generated for the
 * same operators ({@code lstmStepSaving}, {@code classifierLoss}, their gradients {@code lstmStepGradSaved} and
 * {@code classifierLossGrad}, {@code add}, {@code sgd}), with every parameter, state and gradient on
 * the device. Only the B row losses come back each step, to print their mean. Starts from the same
 * parameters and targets as the CPU {@link Training} it is given.
 */
final class CudaTraining implements Trainer, AutoCloseable {
  private final LstmModel m;
  private final CudaDevice gpu;
  private final CudaStream stream;
  private final List<DeviceFloatArray> arrays = new ArrayList<>();
  private final DeviceFloatArray[] xs;
  private final DeviceFloatArray target;
  private final DeviceFloatArray[] hs;
  private final DeviceFloatArray[] cs;
  /** Per step, what lstmStepSaving keeps for lstmStepGradSaved: [x | h] and the gate products. */
  private final DeviceFloatArray[] xhs;
  private final DeviceFloatArray[] gates;
  private final DeviceFloatArray loss;
  private final DeviceFloatArray dloss;
  private final DeviceFloatArray dx;
  private final DeviceFloatArray dtarget;
  private final DeviceFloatArray dwStep;
  private final DeviceFloatArray dbiasStep;
  private final DeviceFloatArray dwOut;
  private final DeviceFloatArray dbOut;
  private DeviceFloatArray w;
  private DeviceFloatArray bias;
  private DeviceFloatArray wOut;
  private DeviceFloatArray bOut;
  private DeviceFloatArray wNext;
  private DeviceFloatArray biasNext;
  private DeviceFloatArray wOutNext;
  private DeviceFloatArray bOutNext;
  private DeviceFloatArray dh;
  private DeviceFloatArray dhPrev;
  private DeviceFloatArray dc;
  private DeviceFloatArray dcPrev;
  private DeviceFloatArray dw;
  private DeviceFloatArray dbias;
  private DeviceFloatArray dwSum;
  private DeviceFloatArray dbiasSum;

  CudaTraining(LstmModel m, Training host) {
    this.m = m;
    this.gpu = CudaRuntime.device();
    this.stream = gpu.defaultStream();
    try {
      int b = m.batch;
      int h = m.hidden;
      xs = new DeviceFloatArray[m.steps];
      for (int t = 0; t < m.steps; t++) {
        xs[t] = keep(gpu.upload(m.xs[t]));
      }
      target = keep(gpu.upload(host.target));
      hs = new DeviceFloatArray[m.steps + 1];
      cs = new DeviceFloatArray[m.steps + 1];
      for (int t = 0; t <= m.steps; t++) {
        hs[t] = zeros(b * h);
        cs[t] = zeros(b * h);
      }
      xhs = new DeviceFloatArray[m.steps];
      gates = new DeviceFloatArray[m.steps];
      for (int t = 0; t < m.steps; t++) {
        xhs[t] = zeros((long) b * (m.input + h));
        gates[t] = zeros(4L * b * h);
      }
      loss = zeros(b);
      float[] meanWeights = new float[b];
      java.util.Arrays.fill(meanWeights, 1f / b);  // d(mean loss) / d(row loss)
      dloss = keep(gpu.upload(meanWeights));
      dx = zeros(b * m.input);
      dtarget = zeros(b * m.classes);
      w = keep(gpu.upload(host.w));
      bias = keep(gpu.upload(host.bias));
      wOut = keep(gpu.upload(host.wOut));
      bOut = keep(gpu.upload(host.bOut));
      wNext = zeros(host.w.length);
      biasNext = zeros(host.bias.length);
      wOutNext = zeros(host.wOut.length);
      bOutNext = zeros(host.bOut.length);
      dwStep = zeros(host.w.length);
      dbiasStep = zeros(host.bias.length);
      dwOut = zeros(host.wOut.length);
      dbOut = zeros(host.bOut.length);
      dh = zeros(b * h);
      dhPrev = zeros(b * h);
      dc = zeros(b * h);
      dcPrev = zeros(b * h);
      dw = zeros(host.w.length);
      dbias = zeros(host.bias.length);
      dwSum = zeros(host.w.length);
      dbiasSum = zeros(host.bias.length);
  
    } catch (RuntimeException e) {
      close(); // the arrays allocated before the failure
      throw e;
    }
  }

  private DeviceFloatArray keep(DeviceFloatArray a) {
    arrays.add(a);
    return a;
  }

  private DeviceFloatArray zeros(long n) {
    DeviceFloatArray a = keep(gpu.allocFloats(n));
    a.zero();
    return a;
  }

  String deviceName() {
    return gpu.name();
  }

  @Override
  public float forward() {
    for (int t = 0; t < m.steps; t++) {
      LstmOpsKernels.lstmStepSaving(stream, m.batch, m.input, m.hidden, xs[t], hs[t], cs[t], w, bias,
          LstmModel.FORGET_BIAS, cs[t + 1], hs[t + 1], xhs[t], gates[t]);
    }
    LstmOpsKernels.classifierLoss(stream, m.batch, m.hidden, m.classes, hs[m.steps], wOut, bOut, target, loss);
    double sum = 0;
    for (float v : loss.download()) {
      sum += v;
    }
    return (float) (sum / m.batch);
  }

  @Override
  public void backward() {
    int b = m.batch;
    int h = m.hidden;
    LstmOpsKernels.classifierLossGrad(stream, b, h, m.classes, hs[m.steps], wOut, bOut, target, loss, dloss,
        dh, dwOut, dbOut, dtarget);
    dc.zero();  // the loss does not read the last cell state
    for (int t = m.steps - 1; t >= 0; t--) {
      boolean last = t == m.steps - 1;
      LstmOpsKernels.lstmStepGradSaved(stream, b, m.input, h, xs[t], hs[t], cs[t], w, bias, LstmModel.FORGET_BIAS,
          cs[t + 1], hs[t + 1], xhs[t], gates[t], dc, dh, dx, dhPrev, dcPrev, last ? dw : dwStep,
          last ? dbias : dbiasStep);
      if (!last) {
        LstmOpsKernels.add(stream, Math.toIntExact(dw.length()), dw, dwStep, dwSum);
        LstmOpsKernels.add(stream, Math.toIntExact(dbias.length()), dbias, dbiasStep, dbiasSum);
        DeviceFloatArray swap = dw;
        dw = dwSum;
        dwSum = swap;
        swap = dbias;
        dbias = dbiasSum;
        dbiasSum = swap;
      }
      DeviceFloatArray swap = dh;
      dh = dhPrev;
      dhPrev = swap;
      swap = dc;
      dc = dcPrev;
      dcPrev = swap;
    }
  }

  @Override
  public void update() {
    LstmOpsKernels.sgd(stream, Math.toIntExact(w.length()), w, dw, Training.LEARNING_RATE, wNext);
    LstmOpsKernels.sgd(stream, Math.toIntExact(bias.length()), bias, dbias, Training.LEARNING_RATE, biasNext);
    LstmOpsKernels.sgd(stream, Math.toIntExact(wOut.length()), wOut, dwOut, Training.LEARNING_RATE, wOutNext);
    LstmOpsKernels.sgd(stream, Math.toIntExact(bOut.length()), bOut, dbOut, Training.LEARNING_RATE, bOutNext);
    DeviceFloatArray swap = w;
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

  /** Kernel launches since the device's counters were last reset. */
  long launches() {
    return gpu.stats().launches();
  }

  void resetStats() {
    gpu.resetStats();
  }

  @Override
  public void finish() {
    stream.synchronize();
  }

  /** Frees every device array, each even when freeing another fails (the first failure is thrown). */
  @Override
  public void close() {
    RuntimeException failure = null;
    for (DeviceFloatArray a : arrays) {
      try {
        a.close();
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
