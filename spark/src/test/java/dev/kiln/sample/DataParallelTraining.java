package dev.kiln.sample;

import dev.kiln.spark.KilnSpark;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;

/**
 * The sample's LSTM classifier ({@link LstmModel}, {@link Training}) trained by data-parallel
 * gradient descent on Spark: each step the parameters go to every part as a broadcast, each part
 * runs the forward and backward passes (Kiln's generated launchers) on its rows of the batch, and
 * the parts' gradients, weighted by their share of the batch, are summed in a fixed tree ({@link
 * KilnSpark#treeSum}); the driver updates the parameters with the sample's own {@code sgd}
 * launcher. The loss is the batch's mean cross-entropy, as on one machine ({@link #single}).
 *
 * <p>What moves per step: the four parameter arrays to each executor (one broadcast), and from each
 * part its four gradient arrays and its loss; the inputs never move (each part rebuilds its rows of
 * the sample's fixed data from the seed).
 */
public final class DataParallelTraining {
  private DataParallelTraining() {}

  /** The sample's options with {@code batch} rows and default sizes otherwise. */
  static Options options(int batch) {
    Options d = Options.DEFAULTS;
    return new Options(batch, d.input(), d.hidden(), d.classes(), d.steps(), d.reps(), d.seed(), d.train(), "none");
  }

  /** The losses of {@code steps} steps of the sample's training on one machine, before each update. */
  public static double[] single(int batch, int steps) {
    Training t = new Training(new LstmModel(options(batch)), Options.DEFAULTS.seed());
    double[] losses = new double[steps];
    for (int s = 0; s < steps; s++) {
      losses[s] = t.forward();
      t.backward();
      t.update();
    }
    return losses;
  }

  /** One part of the batch: rows {@code [first, first + rows)} of a batch of {@code batch}. */
  record Part(int batch, int first, int rows) implements Serializable {}

  /** What a part gives back: its rows' summed loss, and its gradients weighted by its share of the batch. */
  record Gradients(double lossSum, float[] dw, float[] dbias, float[] dwOut, float[] dbOut) implements Serializable {}

  /** The losses of {@code steps} steps of the same training split into {@code parts} parts over {@code sc}. */
  public static double[] onSpark(JavaSparkContext sc, int batch, int steps, int parts) {
    LstmModel model = new LstmModel(options(batch));
    float[][] params = {model.w.clone(), model.bias.clone(), model.wOut.clone(), model.bOut.clone()};
    List<Part> split = new ArrayList<>();
    for (int p = 0; p < parts; p++) {
      int first = batch * p / parts;
      split.add(new Part(batch, first, batch * (p + 1) / parts - first));
    }
    double[] losses = new double[steps];
    for (int s = 0; s < steps; s++) {
      Broadcast<float[][]> shared = sc.broadcast(params);
      List<Gradients> results = sc.parallelize(split, parts).map(p -> part(p, shared.value())).collect();
      shared.destroy();
      double loss = 0;
      List<float[]> dw = new ArrayList<>();
      List<float[]> dbias = new ArrayList<>();
      List<float[]> dwOut = new ArrayList<>();
      List<float[]> dbOut = new ArrayList<>();
      for (Gradients g : results) {
        loss += g.lossSum();
        dw.add(g.dw());
        dbias.add(g.dbias());
        dwOut.add(g.dwOut());
        dbOut.add(g.dbOut());
      }
      losses[s] = loss / batch;
      float[][] grads = {KilnSpark.treeSum(dw), KilnSpark.treeSum(dbias), KilnSpark.treeSum(dwOut), KilnSpark.treeSum(dbOut)};
      float[][] next = new float[4][];
      for (int i = 0; i < 4; i++) {
        next[i] = new float[params[i].length];
        LstmOpsKernels.sgd(params[i].length, params[i], grads[i], Training.LEARNING_RATE, next[i]);
      }
      params = next;
    }
    return losses;
  }

  /** Runs on an executor: the forward and backward passes of one part's rows. */
  static Gradients part(Part p, float[][] params) {
    LstmModel slice = new LstmModel(new LstmModel(options(p.batch())), p.first(), p.rows());
    Training t = new Training(slice, Options.DEFAULTS.seed());
    t.w = params[0].clone();
    t.bias = params[1].clone();
    t.wOut = params[2].clone();
    t.bOut = params[3].clone();
    float mean = t.forward();
    t.backward();
    float share = (float) p.rows() / p.batch();
    return new Gradients((double) mean * p.rows(), scaled(t.dw, share), scaled(t.dbias, share), scaled(t.dwOut, share),
        scaled(t.dbOut, share));
  }

  private static float[] scaled(float[] a, float share) {
    float[] out = new float[a.length];
    for (int i = 0; i < a.length; i++) {
      out[i] = a[i] * share;
    }
    return out;
  }
}
