package dev.kiln.sample;

import dev.kiln.runtime.cuda.CudaDevice;
import dev.kiln.runtime.cuda.CudaRuntime;
import dev.kiln.runtime.cuda.CudaStream;
import dev.kiln.runtime.cuda.DeviceFloatArray;
import java.util.ArrayList;
import java.util.List;

/**
 * The same LSTM forward pass on the GPU, through the device launchers Kiln generated: weights and
 * state stay on the device, every step is three kernel launches (concat, affine, cell), and only
 * the final probabilities come back.
 */
final class CudaForward implements AutoCloseable {
  private final LstmModel m;
  private final CudaDevice gpu;
  private final CudaStream stream;
  private final List<DeviceFloatArray> arrays = new ArrayList<>();
  private final DeviceFloatArray[] xs;
  private final DeviceFloatArray w;
  private final DeviceFloatArray bias;
  private final DeviceFloatArray wOut;
  private final DeviceFloatArray bOut;
  private final DeviceFloatArray xh;
  private final DeviceFloatArray gates;
  private final DeviceFloatArray logits;
  private final DeviceFloatArray probs;
  private DeviceFloatArray h;
  private DeviceFloatArray c;
  private DeviceFloatArray hNext;
  private DeviceFloatArray cNext;

  CudaForward(LstmModel m) {
    this.m = m;
    this.gpu = CudaRuntime.device();
    this.stream = gpu.defaultStream();
    xs = new DeviceFloatArray[m.steps];
    for (int t = 0; t < m.steps; t++) {
      xs[t] = keep(gpu.upload(m.xs[t]));
    }
    w = keep(gpu.upload(m.w));
    bias = keep(gpu.upload(m.bias));
    wOut = keep(gpu.upload(m.wOut));
    bOut = keep(gpu.upload(m.bOut));
    xh = keep(gpu.allocFloats((long) m.batch * (m.input + m.hidden)));
    gates = keep(gpu.allocFloats((long) m.batch * 4 * m.hidden));
    logits = keep(gpu.allocFloats((long) m.batch * m.classes));
    probs = keep(gpu.allocFloats((long) m.batch * m.classes));
    h = keep(gpu.allocFloats((long) m.batch * m.hidden));
    c = keep(gpu.allocFloats((long) m.batch * m.hidden));
    hNext = keep(gpu.allocFloats((long) m.batch * m.hidden));
    cNext = keep(gpu.allocFloats((long) m.batch * m.hidden));
  }

  private DeviceFloatArray keep(DeviceFloatArray a) {
    arrays.add(a);
    return a;
  }

  String deviceName() {
    return gpu.name();
  }

  /** Runs the whole sequence from a zero state and waits for the GPU. */
  void forward() {
    h.zero();
    c.zero();
    int k = m.input + m.hidden;
    for (int t = 0; t < m.steps; t++) {
      LstmOpsKernels.concatRows(stream, m.batch, m.input, m.hidden, xs[t], h, xh);
      LstmOpsKernels.affine(stream, m.batch, k, 4 * m.hidden, xh, w, bias, gates);
      LstmOpsKernels.lstmCell(stream, m.batch, m.hidden, gates, c, LstmModel.FORGET_BIAS, cNext, hNext);
      DeviceFloatArray swap = h;
      h = hNext;
      hNext = swap;
      swap = c;
      c = cNext;
      cNext = swap;
    }
    LstmOpsKernels.affine(stream, m.batch, m.hidden, m.classes, h, wOut, bOut, logits);
    LstmOpsKernels.softmax(stream, m.batch, m.classes, logits, probs);
    stream.synchronize();
  }

  float[] probabilities() {
    return probs.download();
  }

  long launches() {
    return gpu.stats().launches();
  }

  void resetStats() {
    gpu.resetStats();
  }

  @Override
  public void close() {
    arrays.forEach(DeviceFloatArray::close);
  }
}
