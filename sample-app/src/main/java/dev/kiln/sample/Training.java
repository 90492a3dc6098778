package dev.kiln.sample;

import java.util.Arrays;
import java.util.Random;

/**
 * Training the sample's LSTM classifier with gradient descent, every forward and backward pass run
 * by launchers Kiln generated from {@link LstmOps}: {@code lstmStepSaving} (the step, handing out
 * the concatenated input and the gate products its fused forward pass stores anyway) and {@code
 * classifierLoss} forward; their backward passes {@code classifierLossGrad} and {@code
 * lstmStepGradSaved} (backpropagation through time, reading those instead of computing the gate
 * products again), which Kiln derives from the operators' source (the affine map's
 * part is its hand-written {@code @Gradient}, {@link LstmOps#affineBackward}); {@code add} to sum a weight's gradient over the time steps and
 * {@code sgd} to update it. The host only seeds the
 * upstream gradients, swaps array references and sums the B row losses for printing.
 *
 * <p>This form calls the {@code float[]} launchers, which always run on the CPU: the sample checks
 * the derived gradients with it, and on a GPU trains it in lockstep with {@link TensorTraining} (the
 * same passes through the FloatTensor launchers, which run where {@code Kiln.device()} says) to
 * compare their losses.
 *
 * <p>The task: the model's fixed input sequences ({@link LstmModel#xs}), each labelled with the
 * class a random linear teacher gives their sum over time, {@code argmax_c (sum_t x_t)·P[:, c]}.
 */
final class Training implements Trainer {
  /** Learning rate of plain gradient descent on the mean cross-entropy. */
  static final float LEARNING_RATE = 2f;

  private final LstmModel m;
  private final int k;
  final int[] labels;
  final float[] target;

  // The parameters, updated in place by swapping with the next* arrays.
  float[] w;
  float[] bias;
  float[] wOut;
  float[] bOut;
  private float[] wNext;
  private float[] biasNext;
  private float[] wOutNext;
  private float[] bOutNext;

  // Forward results kept for the backward pass: hs[t], cs[t] are the state before step t.
  private final float[][] hs;
  private final float[][] cs;
  /** Per step, what lstmStepSaving keeps for lstmStepGradSaved: [x | h] and the gate products. */
  private final float[][] xhs;
  private final float[][] gates;
  private final float[] loss;

  // Backward buffers.
  private final float[] dloss;
  private float[] dh;
  private float[] dhPrev;
  private float[] dc;
  private float[] dcPrev;
  private final float[] dx;
  private final float[] dtarget;
  private final float[] dwStep;
  private final float[] dbiasStep;
  float[] dw;
  float[] dbias;
  private float[] dwSum;
  private float[] dbiasSum;
  final float[] dwOut;
  final float[] dbOut;

  Training(LstmModel m, long seed) {
    this.m = m;
    this.k = m.input + m.hidden;
    int b = m.batch;
    int h = m.hidden;
    int c = m.classes;
    Random random = new Random(seed + 2);  // a stream apart from the weights and the table's data
    float[] teacher = LstmModel.uniform(random, m.input * c, 1f);
    labels = new int[b];
    target = new float[b * c];
    for (int row = 0; row < b; row++) {
      int best = 0;
      double bestScore = Double.NEGATIVE_INFINITY;
      for (int cls = 0; cls < c; cls++) {
        double score = 0;
        for (int t = 0; t < m.steps; t++) {
          for (int i = 0; i < m.input; i++) {
            score += m.xs[t][row * m.input + i] * teacher[i * c + cls];
          }
        }
        if (score > bestScore) {
          bestScore = score;
          best = cls;
        }
      }
      labels[row] = best;
      target[row * c + best] = 1f;
    }
    w = m.w.clone();
    bias = m.bias.clone();
    wOut = m.wOut.clone();
    bOut = m.bOut.clone();
    wNext = new float[w.length];
    biasNext = new float[bias.length];
    wOutNext = new float[wOut.length];
    bOutNext = new float[bOut.length];
    hs = new float[m.steps + 1][b * h];
    xhs = new float[m.steps][b * (m.input + h)];
    gates = new float[m.steps][b * 4 * h];
    cs = new float[m.steps + 1][b * h];
    loss = new float[b];
    dloss = new float[b];
    Arrays.fill(dloss, 1f / b);  // d(mean loss) / d(row loss)
    dh = new float[b * h];
    dhPrev = new float[b * h];
    dc = new float[b * h];
    dcPrev = new float[b * h];
    dx = new float[b * m.input];
    dtarget = new float[b * c];
    dwStep = new float[w.length];
    dbiasStep = new float[bias.length];
    dw = new float[w.length];
    dbias = new float[bias.length];
    dwSum = new float[w.length];
    dbiasSum = new float[bias.length];
    dwOut = new float[wOut.length];
    dbOut = new float[bOut.length];
  }

  /** Mean cross-entropy of the current parameters, through the generated kernels; keeps the states. */
  @Override
  public float forward() {
    for (int t = 0; t < m.steps; t++) {
      LstmOpsKernels.lstmStepSaving(m.batch, m.input, m.hidden, m.xs[t], hs[t], cs[t], w, bias,
          LstmModel.FORGET_BIAS, cs[t + 1], hs[t + 1], xhs[t], gates[t]);
    }
    LstmOpsKernels.classifierLoss(m.batch, m.hidden, m.classes, hs[m.steps], wOut, bOut, target, loss);
    return mean(loss);
  }

  /** The gradient of the mean loss for every parameter (dw, dbias, dwOut, dbOut), after {@link #forward}. */
  @Override
  public void backward() {
    int b = m.batch;
    int h = m.hidden;
    LstmOpsKernels.classifierLossGrad(b, h, m.classes, hs[m.steps], wOut, bOut, target, loss, dloss,
        dh, dwOut, dbOut, dtarget);
    Arrays.fill(dc, 0f);  // the loss does not read the last cell state: its gradient starts at zero
    for (int t = m.steps - 1; t >= 0; t--) {
      boolean last = t == m.steps - 1;
      LstmOpsKernels.lstmStepGradSaved(b, m.input, h, m.xs[t], hs[t], cs[t], w, bias, LstmModel.FORGET_BIAS,
          cs[t + 1], hs[t + 1], xhs[t], gates[t], dc, dh, dx, dhPrev, dcPrev, last ? dw : dwStep,
          last ? dbias : dbiasStep);
      if (!last) {
        LstmOpsKernels.add(dw.length, dw, dwStep, dwSum);
        LstmOpsKernels.add(dbias.length, dbias, dbiasStep, dbiasSum);
        float[] swap = dw;
        dw = dwSum;
        dwSum = swap;
        swap = dbias;
        dbias = dbiasSum;
        dbiasSum = swap;
      }
      float[] swap = dh;
      dh = dhPrev;
      dhPrev = swap;
      swap = dc;
      dc = dcPrev;
      dcPrev = swap;
    }
  }

  @Override
  public void update() {
    LstmOpsKernels.sgd(w.length, w, dw, LEARNING_RATE, wNext);
    LstmOpsKernels.sgd(bias.length, bias, dbias, LEARNING_RATE, biasNext);
    LstmOpsKernels.sgd(wOut.length, wOut, dwOut, LEARNING_RATE, wOutNext);
    LstmOpsKernels.sgd(bOut.length, bOut, dbOut, LEARNING_RATE, bOutNext);
    float[] swap = w;
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

  /**
   * The same loss computed by the plain-Java operators (the composites run call by call, as
   * written), in double where the row losses are summed: the reference for finite differences.
   */
  double plainLoss(float[] w, float[] bias, float[] wOut, float[] bOut) {
    int b = m.batch;
    int h = m.hidden;
    float[] hPrev = new float[b * h];
    float[] cPrev = new float[b * h];
    float[] hNew = new float[b * h];
    float[] cNew = new float[b * h];
    for (int t = 0; t < m.steps; t++) {
      LstmOps.lstmStep(b, m.input, h, m.xs[t], hPrev, cPrev, w, bias, LstmModel.FORGET_BIAS, cNew, hNew);
      float[] swap = hPrev;
      hPrev = hNew;
      hNew = swap;
      swap = cPrev;
      cPrev = cNew;
      cNew = swap;
    }
    float[] rows = new float[b];
    LstmOps.classifierLoss(b, h, m.classes, hPrev, wOut, bOut, target, rows);
    double sum = 0;
    for (float r : rows) {
      sum += r;
    }
    return sum / b;
  }

  private static float mean(float[] a) {
    double sum = 0;
    for (float v : a) {
      sum += v;
    }
    return (float) (sum / a.length);
  }
}
