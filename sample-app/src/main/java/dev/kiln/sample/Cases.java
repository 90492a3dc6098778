package dev.kiln.sample;

import java.util.List;
import java.util.Random;

/** The table's rows: each operator of the model alone, on random inputs, then the whole forward pass. */
final class Cases {
  private Cases() {}

  static List<Case> of(LstmModel m, long seed) {
    Random random = new Random(seed + 1);  // a stream apart from the model's weights
    int b = m.batch;
    int h = m.hidden;
    int k = m.input + m.hidden;
    int n = 4 * h;
    int c = m.classes;

    float[] pre = LstmModel.uniform(random, b * n, 4f);
    float[] sigP = new float[b * n];
    float[] sigK = new float[b * n];
    Case sigmoid = new Case("sigmoid (map)", "n=" + (b * n) + " (B x 4H)", Traffic.map(b * n), 0,
        () -> Impl.PLAIN.sigmoid(pre, sigP), () -> Impl.KERNELS.sigmoid(pre, sigK),
        () -> new float[][] {sigP}, () -> new float[][] {sigK});

    float[] xh = LstmModel.uniform(random, b * k, 1f);
    float[] gP = new float[b * n];
    float[] gK = new float[b * n];
    Case affine = new Case("affine", "B=" + b + " K=" + k + " N=" + n,
        Traffic.affine(b, k, n), Traffic.affineFlops(b, k, n),
        () -> Impl.PLAIN.affine(b, k, n, xh, m.w, m.bias, gP),
        () -> Impl.KERNELS.affine(b, k, n, xh, m.w, m.bias, gK),
        () -> new float[][] {gP}, () -> new float[][] {gK});

    float[] gates = LstmModel.uniform(random, b * n, 2f);
    float[] cell = LstmModel.uniform(random, b * h, 1f);
    float[] cP = new float[b * h];
    float[] hP = new float[b * h];
    float[] cK = new float[b * h];
    float[] hK = new float[b * h];
    Case lstmCell = new Case("lstmCell", "B=" + b + " H=" + h, Traffic.lstmCell(b, h), 0,
        () -> Impl.PLAIN.lstmCell(b, h, gates, cell, LstmModel.FORGET_BIAS, cP, hP),
        () -> Impl.KERNELS.lstmCell(b, h, gates, cell, LstmModel.FORGET_BIAS, cK, hK),
        () -> new float[][] {cP, hP}, () -> new float[][] {cK, hK});

    float[] logits = LstmModel.uniform(random, b * c, 3f);
    float[] pP = new float[b * c];
    float[] pK = new float[b * c];
    Case softmax = new Case("softmax", "B=" + b + " N=" + c, Traffic.softmax(b, c), 0,
        () -> Impl.PLAIN.softmax(b, c, logits, pP), () -> Impl.KERNELS.softmax(b, c, logits, pK),
        () -> new float[][] {pP}, () -> new float[][] {pK});

    LstmModel.State plain = m.newState();
    LstmModel.State kernels = m.newState();
    Case forward = new Case("LSTM forward", "T=" + m.steps + " B=" + b + " I=" + m.input
            + " H=" + h + " C=" + c,
        m.forwardBytes(), m.forwardFlops(),
        () -> m.forward(Impl.PLAIN, plain), () -> m.forward(Impl.KERNELS, kernels),
        () -> new float[][] {plain.h, plain.c, plain.probs},
        () -> new float[][] {kernels.h, kernels.c, kernels.probs});

    return List.of(sigmoid, affine, lstmCell, softmax, forward);
  }
}
