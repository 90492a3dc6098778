package dev.kiln.examples;

import dev.kiln.runtime.FloatTensor;
import dev.kiln.runtime.Kiln;
import java.util.Locale;

/**
 * Example 3: a training loop. Fits {@link ExampleOps#logisticLoss} (a logistic model and its
 * cross-entropy) to synthetic data by gradient descent: each step runs the loss, its derived
 * gradient {@code logisticLossGrad} and {@code sgd}, all on {@code Kiln.device()}; the weights stay
 * where the kernels run, and only the loss comes back to print.
 *
 * <pre>java -cp examples/target/kiln-examples.jar dev.kiln.examples.TrainingLoop</pre>
 */
public final class TrainingLoop {
  private TrainingLoop() {}

  public static void main(String[] args) {
    int b = 512;
    int f = 16;
    int steps = 200;
    float lr = 2f;
    java.util.Random random = new java.util.Random(7);
    float[] truth = new float[f];
    for (int i = 0; i < f; i++) {
      truth[i] = (float) random.nextGaussian();
    }
    float[] xs = new float[b * f];
    float[] labels = new float[b];
    for (int r = 0; r < b; r++) {
      double z = 0;
      for (int i = 0; i < f; i++) {
        xs[r * f + i] = (float) random.nextGaussian();
        z += xs[r * f + i] * truth[i];
      }
      labels[r] = z > 0 ? 1f : 0f;
    }
    float[] meanOf = new float[b];
    java.util.Arrays.fill(meanOf, 1f / b); // d(mean loss) / d(each row's loss)
    System.out.println("logistic regression, " + b + " samples of " + f + " features, on " + Kiln.device());
    float first = Float.NaN;
    float last = Float.NaN;
    try (FloatTensor x = FloatTensor.of(xs); FloatTensor target = FloatTensor.of(labels);
        FloatTensor w = FloatTensor.zeros(f); FloatTensor next = FloatTensor.zeros(f);
        FloatTensor loss = FloatTensor.zeros(b); FloatTensor dloss = FloatTensor.of(meanOf);
        FloatTensor dx = FloatTensor.zeros(b * f); FloatTensor dw = FloatTensor.zeros(f);
        FloatTensor dtarget = FloatTensor.zeros(b)) {
      FloatTensor weights = w;
      FloatTensor spare = next;
      for (int s = 0; s <= steps; s++) {
        ExampleOpsKernels.logisticLoss(b, f, x, weights, target, loss);
        if (s % 40 == 0 || s == steps) {
          float mean = mean(loss.toArray());
          System.out.printf(Locale.ROOT, "step %4d  loss %.4f%n", s, mean);
          first = Float.isNaN(first) ? mean : first;
          last = mean;
        }
        if (s == steps) {
          break;
        }
        ExampleOpsKernels.logisticLossGrad(b, f, x, weights, target, loss, dloss, dx, dw, dtarget);
        ExampleOpsKernels.sgd(f, weights, dw, lr, spare);
        FloatTensor t = weights;
        weights = spare;
        spare = t;
      }
      System.out.printf(Locale.ROOT, "loss %.4f -> %.4f; %d of %d samples classified right%n", first, last,
          correct(xs, weights.toArray(), labels, f), b);
    }
    if (!(last < first)) {
      throw new AssertionError("the loss did not decrease");
    }
  }

  private static float mean(float[] values) {
    double s = 0;
    for (float v : values) {
      s += v;
    }
    return (float) (s / values.length);
  }

  private static int correct(float[] x, float[] w, float[] labels, int f) {
    int right = 0;
    for (int r = 0; r < labels.length; r++) {
      double z = 0;
      for (int i = 0; i < f; i++) {
        z += x[r * f + i] * w[i];
      }
      right += (z > 0) == (labels[r] == 1f) ? 1 : 0;
    }
    return right;
  }
}
