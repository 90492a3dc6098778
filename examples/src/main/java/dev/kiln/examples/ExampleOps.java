package dev.kiln.examples;

import static dev.kiln.KMath.*;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Shape;

/**
 * The examples' operators: plain static Java methods. Kiln compiles each into {@code
 * ExampleOpsKernels} (CPU and CUDA kernels, launchers on arrays and on {@code FloatTensor}s) and
 * derives its gradient ({@code geluGrad}, {@code blockGrad}, {@code logisticLossGrad}).
 */
public final class ExampleOps {
  private ExampleOps() {}

  /** GELU with the error function, elementwise. */
  @Operator
  public static void gelu(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      float v = x[i];
      y[i] = 0.5f * v * (1f + erf(v * 0.70710678f));
    }
  }

  /** {@code y[b, n] = x[b, n] + bias[n]}. */
  @Operator
  public static void addBias(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("N") float[] bias,
      @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int n = 0; n < N; n++) {
        y[b * N + n] = x[b * N + n] + bias[n];
      }
    }
  }

  /** {@code y = a + b}. */
  @Operator
  public static void add(@Dim int N, @Shape("N") float[] a, @Shape("N") float[] b, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = a[i] + b[i];
    }
  }

  /**
   * A residual block written as three calls: {@code y = x + gelu(x + bias)}. A composite: Kiln fuses
   * the calls into one kernel, with no temporary arrays (see {@code ExampleOps.ir.txt}).
   */
  @Operator
  public static void block(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("N") float[] bias,
      @Out @Shape("B, N") float[] y) {
    float[] t = new float[B * N];
    addBias(B, N, x, bias, t);
    float[] g = new float[B * N];
    gelu(B * N, t, g);
    add(B * N, x, g, y);
  }

  /** {@code p[b] = sigmoid(x[b, :] . w)}: a logistic model's predicted probability. */
  @Operator
  public static void predict(@Dim int B, @Dim int F, @Shape("B, F") float[] x, @Shape("F") float[] w,
      @Out @Shape("B") float[] p) {
    for (@Parallel int b = 0; b < B; b++) {
      float z = 0f;
      for (int f = 0; f < F; f++) {
        z += x[b * F + f] * w[f];
      }
      p[b] = sigmoid(z);
    }
  }

  /** Binary cross-entropy of each prediction against its 0/1 target, the log kept away from 0. */
  @Operator
  public static void crossEntropy(@Dim int B, @Shape("B") float[] p, @Shape("B") float[] target,
      @Out @Shape("B") float[] loss) {
    for (@Parallel int b = 0; b < B; b++) {
      float q = max(p[b], 1e-7f);
      float r = max(1f - p[b], 1e-7f);
      loss[b] = -(target[b] * log(q) + (1f - target[b]) * log(r));
    }
  }

  /** The model and its loss as one composite: its derived gradient {@code logisticLossGrad} trains it. */
  @Operator
  public static void logisticLoss(@Dim int B, @Dim int F, @Shape("B, F") float[] x, @Shape("F") float[] w,
      @Shape("B") float[] target, @Out @Shape("B") float[] loss) {
    float[] p = new float[B];
    predict(B, F, x, w, p);
    crossEntropy(B, p, target, loss);
  }

  /** One step of gradient descent: {@code next = w - lr * g}. */
  @Operator
  public static void sgd(@Dim int N, @Shape("N") float[] w, @Shape("N") float[] g, float lr,
      @Out @Shape("N") float[] next) {
    for (@Parallel int i = 0; i < N; i++) {
      next[i] = w[i] - lr * g[i];
    }
  }

  /** Row {@code ids[i]} of a {@code [V, D]} table for each {@code i}: an embedding lookup at ids that are data. */
  @Operator
  public static void lookup(@Dim int N, @Dim int V, @Dim int D, @Shape("N") int[] ids, @Shape("V, D") float[] table,
      @Out @Shape("N, D") float[] rows) {
    for (@Parallel int i = 0; i < N; i++) {
      for (@Parallel int d = 0; d < D; d++) {
        rows[i * D + d] = table[ids[i] * D + d];
      }
    }
  }
}
