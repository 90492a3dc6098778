package dev.kiln.sample;

import java.util.Arrays;
import java.util.Random;

/**
 * A one-layer LSTM classifier with random weights and a random input sequence, fixed by the seed.
 * Each step computes {@code gates = [x_t, h]·W + bias} and an LSTM cell; after the last step, {@code
 * softmax(h·Wout + bOut)}.
 */
final class LstmModel {
  static final float FORGET_BIAS = 1f;

  final int batch;
  final int input;
  final int hidden;
  final int classes;
  final int steps;
  final float[][] xs;
  final float[] w;
  final float[] bias;
  final float[] wOut;
  final float[] bOut;

  LstmModel(Options o) {
    batch = o.batch();
    input = o.input();
    hidden = o.hidden();
    classes = o.classes();
    steps = o.steps();
    Random random = new Random(o.seed());
    xs = new float[steps][];
    for (int t = 0; t < steps; t++) {
      xs[t] = uniform(random, batch * input, 1f);
    }
    int k = input + hidden;
    w = uniform(random, k * 4 * hidden, (float) (1 / Math.sqrt(k)));
    bias = uniform(random, 4 * hidden, 0.1f);
    wOut = uniform(random, hidden * classes, (float) (1 / Math.sqrt(hidden)));
    bOut = uniform(random, classes, 0.1f);
  }

  /**
   * The rows {@code [first, first + rows)} of {@code whole}'s batch, with the same weights (copies):
   * one part of a data-parallel training step (kiln-spark's {@code DataParallelTraining}).
   */
  LstmModel(LstmModel whole, int first, int rows) {
    batch = rows;
    input = whole.input;
    hidden = whole.hidden;
    classes = whole.classes;
    steps = whole.steps;
    xs = new float[steps][];
    for (int t = 0; t < steps; t++) {
      xs[t] = java.util.Arrays.copyOfRange(whole.xs[t], first * input, (first + rows) * input);
    }
    w = whole.w.clone();
    bias = whole.bias.clone();
    wOut = whole.wOut.clone();
    bOut = whole.bOut.clone();
  }

  /** Values uniform in {@code [-scale, scale)}. */
  static float[] uniform(Random random, int n, float scale) {
    float[] a = new float[n];
    for (int i = 0; i < n; i++) {
      a[i] = (2 * random.nextFloat() - 1) * scale;
    }
    return a;
  }

  /** The arrays one forward pass works in, allocated once so that timing measures no allocation. */
  final class State {
    private final float[] xh = new float[batch * (input + hidden)];
    private final float[] gates = new float[batch * 4 * hidden];
    private final float[] logits = new float[batch * classes];
    final float[] probs = new float[batch * classes];
    float[] h = new float[batch * hidden];
    float[] c = new float[batch * hidden];
    private float[] hNext = new float[batch * hidden];
    private float[] cNext = new float[batch * hidden];
  }

  State newState() {
    return new State();
  }

  /** Runs the whole sequence from a zero state; the result is left in {@code s.h}, {@code s.c}, {@code s.probs}. */
  void forward(Impl ops, State s) {
    int k = input + hidden;
    Arrays.fill(s.h, 0f);
    Arrays.fill(s.c, 0f);
    for (int t = 0; t < steps; t++) {
      ops.concatRows(batch, input, hidden, xs[t], s.h, s.xh);
      ops.affine(batch, k, 4 * hidden, s.xh, w, bias, s.gates);
      ops.lstmCell(batch, hidden, s.gates, s.c, FORGET_BIAS, s.cNext, s.hNext);
      float[] swap = s.h;
      s.h = s.hNext;
      s.hNext = swap;
      swap = s.c;
      s.c = s.cNext;
      s.cNext = swap;
    }
    ops.affine(batch, hidden, classes, s.h, wOut, bOut, s.logits);
    ops.softmax(batch, classes, s.logits, s.probs);
  }

  /** Bytes the forward pass's operators read and write, each array counted once per call. */
  long forwardBytes() {
    return steps * (Traffic.concat(batch, input, hidden) + Traffic.affine(batch, input + hidden, 4 * hidden)
            + Traffic.lstmCell(batch, hidden))
        + Traffic.affine(batch, hidden, classes) + Traffic.softmax(batch, classes);
  }

  /** Floating-point operations of the forward pass's affine maps (multiply and add each count one). */
  long forwardFlops() {
    return steps * Traffic.affineFlops(batch, input + hidden, 4 * hidden)
        + Traffic.affineFlops(batch, hidden, classes);
  }
}
