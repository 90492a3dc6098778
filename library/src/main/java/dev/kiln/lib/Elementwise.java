package dev.kiln.lib;

import dev.kiln.Dim;
import dev.kiln.KMath;
import dev.kiln.KRandom;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Shape;

/**
 * Elementwise grid operators over 1-D arrays of length {@code N}: one worker per element, inputs
 * first, the output last. For a 2-D array pass its total size as {@code N}.
 *
 * <p>This class declares operators named {@code exp} and {@code tanh}, which hide {@link KMath}'s
 * functions of the same names, so the bodies call them qualified.
 */
public final class Elementwise {
  private Elementwise() {}

  /** {@code out[i] = a[i] + b[i]}. */
  @Operator
  public static void add(
      @Dim int N, @Shape("N") float[] a, @Shape("N") float[] b, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = a[i] + b[i];
    }
  }

  /** {@code out[i] = a[i] - b[i]}. */
  @Operator
  public static void sub(
      @Dim int N, @Shape("N") float[] a, @Shape("N") float[] b, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = a[i] - b[i];
    }
  }

  /** {@code out[i] = a[i] * b[i]}. */
  @Operator
  public static void mul(
      @Dim int N, @Shape("N") float[] a, @Shape("N") float[] b, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = a[i] * b[i];
    }
  }

  /** {@code out[i] = a[i] / b[i]}. */
  @Operator
  public static void div(
      @Dim int N, @Shape("N") float[] a, @Shape("N") float[] b, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = a[i] / b[i];
    }
  }

  /** {@code out[i] = x[i] * s}. */
  @Operator
  public static void scale(
      @Dim int N, @Shape("N") float[] x, float s, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = x[i] * s;
    }
  }

  /** {@code out[i] = x[i] + s}. */
  @Operator
  public static void addScalar(
      @Dim int N, @Shape("N") float[] x, float s, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = x[i] + s;
    }
  }

  /** {@code out[i] = -x[i]}. */
  @Operator
  public static void neg(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = -x[i];
    }
  }

  /** {@code out[i] = x[i] * x[i]}. */
  @Operator
  public static void square(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = x[i] * x[i];
    }
  }

  /** {@code out[i] = exp(x[i])}. */
  @Operator
  public static void exp(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = KMath.exp(x[i]);
    }
  }

  /** {@code out[i] = tanh(x[i])}. */
  @Operator
  public static void tanh(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = KMath.tanh(x[i]);
    }
  }

  /** {@code out[i] = 1 / (1 + exp(-x[i]))}, with {@link KMath#exp(float)}. */
  @Operator
  public static void sigmoid(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = 1f / (1f + KMath.exp(-x[i]));
    }
  }

  /** {@code out[i] = x[i] > 0 ? x[i] : 0}. */
  @Operator
  public static void relu(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = x[i] > 0f ? x[i] : 0f;
    }
  }

  /**
   * Inverted dropout: each element zeroed with probability {@code p} (drawn by {@link
   * KRandom#uniform} from {@code seed}, stream 0 and the element's index), the others scaled by
   * {@code 1 / (1 - p)}. The derived gradient {@code dropoutGrad} draws the same mask again: no
   * mask is stored, and the CPU, its chunks and CUDA draw the same one. Pass a new seed per step.
   */
  @Operator
  public static void dropout(@Dim int N, float p, int seed, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = KRandom.uniform(seed, 0, i) < p ? 0f : x[i] / (1f - p);
    }
  }

  /** {@code out[i] = x[i]}. */
  @Operator
  public static void copy(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = x[i];
    }
  }
}
