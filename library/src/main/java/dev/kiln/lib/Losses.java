package dev.kiln.lib;

import dev.kiln.Dim;
import dev.kiln.Gradient;
import dev.kiln.KMath;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Shape;

/**
 * Row-wise softmax, log-softmax and the fused softmax cross-entropy loss on row-major {@code [B, C]}
 * logits: one worker per row, the maximum subtracted before exponentiating.
 *
 * <p>{@link #softmaxCrossEntropy} is the loss AleaTK and PyTorch fuse: its forward pass is one
 * kernel, and its backward pass, written here by hand ({@link #softmaxCrossEntropyBackward}), is one
 * kernel too: {@code dlogits = dloss * (sum(target) * softmax(logits) - target)}, the familiar
 * {@code p - y} for a one-hot or probability target, with the softmax computed again from the
 * logits rather than stored. (The derived gradient of the same loop runs as two kernels with three
 * row-sized temporaries.)
 */
public final class Losses {
  private Losses() {}

  /**
   * {@code out[b, k] = exp(x[b, k] - max_b) / sum_j exp(x[b, j] - max_b)}, the sum a lane sum
   * ({@link Rows#LANES}).
   */
  @Operator
  public static void softmax(@Dim int B, @Dim int C, @Shape("B, C") float[] x, @Out @Shape("B, C") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      float m = Float.NEGATIVE_INFINITY;
      for (int k = 0; k < C; k++) {
        m = KMath.max(m, x[b * C + k]);
      }
      float s = 0f;
      for (int j = 0; j < Rows.LANES; j++) {
        float p = 0f;
        for (int k = j; k < C; k += Rows.LANES) {
          p += KMath.exp(x[b * C + k] - m);
        }
        s += p;
      }
      for (int k = 0; k < C; k++) {
        out[b * C + k] = KMath.exp(x[b * C + k] - m) / s;
      }
    }
  }

  /**
   * {@code out[b, k] = x[b, k] - logsumexp(x[b])}, the logsumexp as {@code max + log(sum exp(x -
   * max))}, the sum a lane sum ({@link Rows#LANES}).
   */
  @Operator
  public static void logSoftmax(@Dim int B, @Dim int C, @Shape("B, C") float[] x, @Out @Shape("B, C") float[] out) {
    for (@Parallel int b = 0; b < B; b++) {
      float m = Float.NEGATIVE_INFINITY;
      for (int k = 0; k < C; k++) {
        m = KMath.max(m, x[b * C + k]);
      }
      float s = 0f;
      for (int j = 0; j < Rows.LANES; j++) {
        float p = 0f;
        for (int k = j; k < C; k += Rows.LANES) {
          p += KMath.exp(x[b * C + k] - m);
        }
        s += p;
      }
      float lse = m + KMath.log(s);
      for (int k = 0; k < C; k++) {
        out[b * C + k] = x[b * C + k] - lse;
      }
    }
  }

  /**
   * Softmax cross-entropy of each row of {@code logits} against {@code target} (one-hot for a class
   * label, or a distribution): {@code loss[b] = sum_k target[b, k] * (logsumexp(logits[b]) -
   * logits[b, k])}; the sum of exponentials a lane sum ({@link Rows#LANES}), as {@link #softmax}'s.
   */
  @Operator
  public static void softmaxCrossEntropy(@Dim int B, @Dim int C, @Shape("B, C") float[] logits,
      @Shape("B, C") float[] target, @Out @Shape("B") float[] loss) {
    for (@Parallel int b = 0; b < B; b++) {
      float m = Float.NEGATIVE_INFINITY;
      for (int k = 0; k < C; k++) {
        m = KMath.max(m, logits[b * C + k]);
      }
      float s = 0f;
      for (int j = 0; j < Rows.LANES; j++) {
        float p = 0f;
        for (int k = j; k < C; k += Rows.LANES) {
          p += KMath.exp(logits[b * C + k] - m);
        }
        s += p;
      }
      float lse = m + KMath.log(s);
      float l = 0f;
      for (int k = 0; k < C; k++) {
        l += target[b * C + k] * (lse - logits[b * C + k]);
      }
      loss[b] = l;
    }
  }

  /**
   * The negative log-likelihood of each row of log-probabilities against {@code target} (one-hot
   * for a class label, or a distribution): {@code loss[b] = -sum_k target[b, k] * logProbs[b, k]}.
   */
  @Operator
  public static void nll(@Dim int B, @Dim int C, @Shape("B, C") float[] logProbs, @Shape("B, C") float[] target,
      @Out @Shape("B") float[] loss) {
    for (@Parallel int b = 0; b < B; b++) {
      float l = 0f;
      for (int k = 0; k < C; k++) {
        l -= target[b * C + k] * logProbs[b * C + k];
      }
      loss[b] = l;
    }
  }

  /**
   * Softmax cross-entropy written from primitives, {@link #logSoftmax} then {@link #nll}: the merger
   * makes the forward pass one kernel, and the derived backward pass one kernel too (each row's
   * log-probabilities kept per worker on the CPU). {@link #softmaxCrossEntropy} is the same loss as
   * one operator with a hand-written backward pass (other roundings: it adds {@code target * (lse -
   * logit)} where this adds {@code -target * (logit - lse)}).
   */
  @Operator
  public static void logSoftmaxNll(@Dim int B, @Dim int C, @Shape("B, C") float[] logits, @Shape("B, C") float[] target,
      @Out @Shape("B") float[] loss) {
    float[] logProbs = new float[B * C];
    logSoftmax(B, C, logits, logProbs);
    nll(B, C, logProbs, target, loss);
  }

  /**
   * The backward pass of {@link #softmaxCrossEntropy} in one row kernel: {@code dlogits[b, k] =
   * dloss[b] * (T_b * p_k - target[b, k])} with {@code p} the row's softmax and {@code T_b} the sum
   * of its targets (1 for a one-hot or probability row), and {@code dtarget[b, k] = dloss[b] *
   * (logsumexp(logits[b]) - logits[b, k])}. Its sums are lane sums, so that {@code p} is
   * {@link #softmax}'s to the bit.
   */
  @Gradient(of = "softmaxCrossEntropy")
  public static void softmaxCrossEntropyBackward(@Dim int B, @Dim int C, @Shape("B, C") float[] logits,
      @Shape("B, C") float[] target, @Shape("B") float[] loss, @Shape("B") float[] dloss,
      @Out @Shape("B, C") float[] dlogits, @Out @Shape("B, C") float[] dtarget) {
    for (@Parallel int b = 0; b < B; b++) {
      float m = Float.NEGATIVE_INFINITY;
      for (int k = 0; k < C; k++) {
        m = KMath.max(m, logits[b * C + k]);
      }
      float s = 0f;
      float total = 0f;
      for (int j = 0; j < Rows.LANES; j++) {
        float p = 0f;
        float t = 0f;
        for (int k = j; k < C; k += Rows.LANES) {
          p += KMath.exp(logits[b * C + k] - m);
          t += target[b * C + k];
        }
        s += p;
        total += t;
      }
      float lse = m + KMath.log(s);
      float g = dloss[b];
      for (int k = 0; k < C; k++) {
        float p = KMath.exp(logits[b * C + k] - m) / s;
        dlogits[b * C + k] = g * (total * p - target[b * C + k]);
        dtarget[b * C + k] = g * (lse - logits[b * C + k]);
      }
    }
  }
}
