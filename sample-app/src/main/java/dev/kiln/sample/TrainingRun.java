package dev.kiln.sample;

import dev.kiln.runtime.KilnException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Random;

/**
 * The sample's training section: checks Kiln's derived gradients against central differences of
 * the plain-Java forward pass, then trains for a few steps, printing the loss and time of each.
 */
final class TrainingRun {
  /** Step of the central differences, on single weights and along the gradient's direction. */
  static final double FD_STEP = 1e-2;
  /** A Kiln gradient passes when {@code |kiln - fd| <= FD_RTOL * |fd| + FD_ATOL}. */
  static final double FD_RTOL = 2e-2;
  static final double FD_ATOL = 2e-4;

  private final Options options;
  private final PrintStream out;

  TrainingRun(Options options, PrintStream out) {
    this.options = options;
    this.out = out;
  }

  /** A GPU's loss at a step agrees with the CPU's when within this, relatively (or absolutely below 1). */
  static final double CUDA_LOSS_TOLERANCE = 1e-3;

  /**
   * Runs the check and the training; appends a line to {@code failures} for each problem. The
   * training is {@link TensorTraining}: the FloatTensor launchers, on {@link dev.kiln.runtime.Kiln#device()}.
   * With {@code onCuda} (that device is a GPU), the CPU also trains in lockstep from the same start
   * ({@link Training}, the float[] launchers): their losses must agree at every step.
   */
  void run(boolean onCuda, StringBuilder failures) {
    LstmModel model = new LstmModel(options);
    Training t = new Training(model, options.seed());
    String where = onCuda ? "on CUDA" : "on the CPU";
    out.println();
    out.printf(Locale.ROOT, "Training %s: %d steps of gradient descent (lr %s) on the mean cross-entropy of the%n",
        where, options.train(), Training.LEARNING_RATE);
    out.println("same LSTM, classifying its B input sequences by the class a random linear teacher gives their");
    out.println("sum over time. Every pass is a Kiln launcher: lstmStepSaving (the step, keeping its gate products)");
    out.println("and classifierLoss forward; their backward passes classifierLossGrad and lstmStepGradSaved (through");
    out.println("time, reading the kept products), derived by Kiln from the operators' source, with affine's");
    out.println("hand-written @Gradient (affineBackward) inside; add and sgd for the update.");

    gradientCheck(t, failures);

    try (TensorTraining trainer = new TensorTraining(model, t)) {
      if (onCuda) {
        out.println();
        out.printf(Locale.ROOT, "on %s, every parameter, state and gradient on the device; the CPU trains in lockstep"
            + "%nfrom the same start (the float[] launchers), and the losses must agree within %.0e (relative).%n",
            trainer.deviceName(), CUDA_LOSS_TOLERANCE);
      }
      train(trainer, onCuda ? t : null, model, t, failures);
      if (onCuda) {
        trainer.resetStats();
        trainer.forward();
        trainer.backward();
        trainer.update();
        trainer.finish();
        out.printf(Locale.ROOT, "kernel launches per training step on CUDA: %d%n", trainer.launches());
      }
    } catch (KilnException e) {
      out.println();
      out.println("training " + where + ": failed: " + e.getMessage());
      failures.append("  training ").append(where).append(": ").append(e.getMessage()).append('\n');
    }
  }

  /**
   * Trains with {@code trainer} (the FloatTensor launchers, on whichever device Kiln runs), printing
   * each step; with a {@code lockstep} CPU trainer (when {@code trainer} runs on a GPU) also steps
   * that and compares the losses. {@code reference} times the plain-Java loss.
   */
  private void train(TensorTraining trainer, Training lockstep, LstmModel model, Training reference,
      StringBuilder failures) {
    out.println();
    out.printf(Locale.ROOT, "%6s %10s %12s %12s%s%n", "step", "loss", "forward ms", "backward ms",
        lockstep == null ? "" : String.format(Locale.ROOT, " %10s", "CPU loss"));
    int steps = options.train();
    double[] forwardMs = new double[steps];
    double[] backwardMs = new double[steps];
    float[] losses = new float[steps];
    float first = Float.NaN;
    for (int s = 0; s < steps; s++) {
      long t0 = System.nanoTime();
      float loss = trainer.forward();
      long t1 = System.nanoTime();
      trainer.backward();
      trainer.update();
      trainer.finish();
      long t2 = System.nanoTime();
      forwardMs[s] = (t1 - t0) / 1e6;
      backwardMs[s] = (t2 - t1) / 1e6;
      losses[s] = loss;
      String cpuColumn = "";
      if (lockstep != null) {
        float cpuLoss = lockstep.forward();
        lockstep.backward();
        lockstep.update();
        cpuColumn = String.format(Locale.ROOT, " %10.4f", cpuLoss);
        agree(loss, cpuLoss, "step " + (s + 1), failures);
      }
      out.printf(Locale.ROOT, "%6d %10.4f %12.3f %12.3f%s%n", s + 1, loss, forwardMs[s], backwardMs[s], cpuColumn);
      if (s == 0) {
        first = loss;
      }
    }
    float after = trainer.forward();
    out.printf(Locale.ROOT, "%6s %10.4f%n", "after", after);
    if (lockstep != null) {
      agree(after, lockstep.forward(), "after training", failures);
    }
    if (!(after < first)) {
      failures.append(String.format(Locale.ROOT, "  training: the loss did not decrease (%.4f -> %.4f)%n", first, after));
    }
    String where = trainer.device() == dev.kiln.runtime.Device.CUDA ? "on CUDA" : "on the CPU";
    plot(where, losses, forwardMs, backwardMs);
    double forward = median(forwardMs);
    double backward = median(backwardMs);
    float[][] p = trainer.parameters();
    double plain = Bench.medianMillis(() -> reference.plainLoss(p[0], p[1], p[2], p[3]), options.reps());
    out.println();
    out.printf(Locale.ROOT, "loss %.4f -> %.4f in %d steps; %d of %d sequences classified right after.%n", first,
        after, steps, correct(model, reference.labels, p), model.batch);
    out.printf(Locale.ROOT, "per training step (median of the steps above): %.3f ms = forward %.3f ms + backward and"
        + " update %.3f ms.%nplain-Java forward pass of the same loss: %.3f ms (median of %d after warm-up); the"
        + " backward pass has no plain-Java form to time.%n", forward + backward, forward, backward, plain, options.reps());
  }

  /** Draws the run into {@code --plot}'s file (unless none), saying where; a file it cannot write is said, not fatal. */
  private void plot(String where, float[] losses, double[] forwardMs, double[] backwardMs) {
    if (options.plot().equals(Options.NO_PLOT) || losses.length == 0) {
      return;
    }
    Path file = Path.of(options.plot());
    String title = String.format(Locale.ROOT, "Kiln sample: training the LSTM %s (B=%d, H=%d, T=%d)", where,
        options.batch(), options.hidden(), options.steps());
    try {
      LossPlot.write(file, title, losses, forwardMs, backwardMs);
      out.println("loss curve and step times drawn in " + file.toAbsolutePath() + " (SVG; open it in a browser)");
    } catch (IOException | RuntimeException e) {
      out.println("could not write the plot " + file.toAbsolutePath() + ": " + e);
    }
  }

  private static void agree(float cuda, float cpu, String when, StringBuilder failures) {
    if (!(Math.abs(cuda - cpu) <= CUDA_LOSS_TOLERANCE * Math.max(1, Math.abs(cpu)))) {
      failures.append(String.format(Locale.ROOT, "  training on CUDA: loss %.6f, on the CPU %.6f, %s%n", cuda, cpu, when));
    }
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int mid = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  }

  /** Kiln's gradient of every parameter tensor vs central differences of {@link Training#plainLoss}. */
  private void gradientCheck(Training t, StringBuilder failures) {
    t.forward();
    t.backward();
    out.println();
    out.printf(Locale.ROOT, "gradient check: Kiln's backward pass vs central differences (step %.0e) of the plain-Java%n", FD_STEP);
    out.printf(Locale.ROOT, "forward, in each weight tensor's largest entry, a random entry and the gradient's direction;%n");
    out.printf(Locale.ROOT, "passes when |kiln - fd| <= %.0e * |fd| + %.0e%n", FD_RTOL, FD_ATOL);
    out.printf(Locale.ROOT, "  %-6s %-14s %13s %13s %10s%n", "tensor", "where", "kiln", "finite diff", "|diff|");
    Random random = new Random(options.seed() + 3);
    float[][] params = {t.w, t.bias, t.wOut, t.bOut};
    float[][] grads = {t.dw.clone(), t.dbias.clone(), t.dwOut.clone(), t.dbOut.clone()};
    String[] names = {"w", "bias", "wOut", "bOut"};
    for (int p = 0; p < params.length; p++) {
      float[] g = grads[p];
      int largest = 0;
      for (int i = 1; i < g.length; i++) {
        if (Math.abs(g[i]) > Math.abs(g[largest])) {
          largest = i;
        }
      }
      int any = random.nextInt(g.length);
      for (int e : new int[] {largest, any}) {
        float[] dir = new float[g.length];
        dir[e] = 1f;
        check(t, params, p, dir, g[e], names[p], "[" + e + "]", failures);
      }
      double norm = 0;
      for (float v : g) {
        norm += (double) v * v;
      }
      norm = Math.sqrt(norm);
      if (norm > 0) {
        float[] dir = new float[g.length];
        for (int i = 0; i < g.length; i++) {
          dir[i] = (float) (g[i] / norm);
        }
        check(t, params, p, dir, norm, names[p], "along grad", failures);
      }
    }
  }

  /** Compares {@code kiln}, the derivative along {@code dir} of tensor {@code p}, with central differences. */
  private void check(Training t, float[][] params, int p, float[] dir, double kiln, String name, String where,
      StringBuilder failures) {
    float[][] plus = copy(params);
    float[][] minus = copy(params);
    for (int i = 0; i < dir.length; i++) {
      plus[p][i] += (float) (FD_STEP * dir[i]);
      minus[p][i] -= (float) (FD_STEP * dir[i]);
    }
    double fd = (t.plainLoss(plus[0], plus[1], plus[2], plus[3]) - t.plainLoss(minus[0], minus[1], minus[2], minus[3]))
        / (2 * FD_STEP);
    double diff = Math.abs(kiln - fd);
    boolean ok = diff <= FD_RTOL * Math.abs(fd) + FD_ATOL;
    out.printf(Locale.ROOT, "  %-6s %-14s %13.5e %13.5e %10.2e%s%n", name, where, kiln, fd, diff, ok ? "" : "  FAIL");
    if (!ok) {
      failures.append(String.format(Locale.ROOT, "  gradient of %s %s: Kiln %.5e, finite differences %.5e%n",
          name, where, kiln, fd));
    }
  }

  private static float[][] copy(float[][] arrays) {
    float[][] c = new float[arrays.length][];
    for (int i = 0; i < arrays.length; i++) {
      c[i] = arrays[i].clone();
    }
    return c;
  }

  /** The number of rows whose largest logit is their label, with parameters {@code p} (w, bias, wOut, bOut). */
  private static int correct(LstmModel m, int[] labels, float[][] p) {
    float[] w = p[0];
    float[] bias = p[1];
    float[] wOut = p[2];
    float[] bOut = p[3];
    int b = m.batch;
    int h = m.hidden;
    float[] hPrev = new float[b * h];
    float[] cPrev = new float[b * h];
    float[] hNew = new float[b * h];
    float[] cNew = new float[b * h];
    for (int step = 0; step < m.steps; step++) {
      LstmOpsKernels.lstmStep(b, m.input, h, m.xs[step], hPrev, cPrev, w, bias, LstmModel.FORGET_BIAS, cNew, hNew);
      float[] swap = hPrev;
      hPrev = hNew;
      hNew = swap;
      swap = cPrev;
      cPrev = cNew;
      cNew = swap;
    }
    float[] logits = new float[b * m.classes];
    LstmOpsKernels.affine(b, h, m.classes, hPrev, wOut, bOut, logits);
    int right = 0;
    for (int row = 0; row < b; row++) {
      int best = 0;
      for (int c = 1; c < m.classes; c++) {
        if (logits[row * m.classes + c] > logits[row * m.classes + best]) {
          best = c;
        }
      }
      if (best == labels[row]) {
        right++;
      }
    }
    return right;
  }
}
