package dev.kiln.tests.ops;

import static dev.kiln.KMath.*;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Reduce;
import dev.kiln.Shape;

/**
 * {@code @Reduce} outputs: several workers update the same element. Like the plain-Java loops, the
 * kernels accumulate onto whatever the output holds when called.
 */
public final class Reductions {
  private Reductions() {}

  /** {@code s[0] += sum(x)}. */
  @Operator
  public static void sum(@Dim int N, @Shape("N") float[] x, @Out @Reduce @Shape("1") float[] s) {
    for (@Parallel int i = 0; i < N; i++) {
      s[0] += x[i];
    }
  }

  /** {@code s[0] += a . b}: the reduced expression is a product. */
  @Operator
  public static void dot(
      @Dim int N,
      @Shape("N") float[] a,
      @Shape("N") float[] b,
      @Out @Reduce @Shape("1") float[] s) {
    for (@Parallel int i = 0; i < N; i++) {
      s[0] += a[i] * b[i];
    }
  }

  /** {@code m[0] = max(m[0], max(x))} with {@code Math.max}. */
  @Operator
  public static void maxAll(@Dim int N, @Shape("N") float[] x, @Out @Reduce @Shape("1") float[] m) {
    for (@Parallel int i = 0; i < N; i++) {
      m[0] = Math.max(m[0], x[i]);
    }
  }

  /** {@code m[0] = min(m[0], min(x))} with KMath's {@code min}. */
  @Operator
  public static void minAll(@Dim int N, @Shape("N") float[] x, @Out @Reduce @Shape("1") float[] m) {
    for (@Parallel int i = 0; i < N; i++) {
      m[0] = min(m[0], x[i]);
    }
  }

  /** {@code p[0] *= prod(x)} in double. */
  @Operator
  public static void product(
      @Dim int N, @Shape("N") double[] x, @Out @Reduce @Shape("1") double[] p) {
    for (@Parallel int i = 0; i < N; i++) {
      p[0] *= x[i];
    }
  }

  /** An int reduction: {@code c[0] +=} the number of positive elements. */
  @Operator
  public static void countPositive(
      @Dim int N, @Shape("N") float[] x, @Out @Reduce @Shape("1") int[] c) {
    for (@Parallel int i = 0; i < N; i++) {
      c[0] += x[i] > 0f ? 1 : 0;
    }
  }

  /** Row sums over a 2-D grid: both loops parallel, workers of a row share {@code s[b]}. */
  @Operator
  public static void rowSums(
      @Dim int B, @Dim int K, @Shape("B, K") float[] x, @Out @Reduce @Shape("B") float[] s) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int k = 0; k < K; k++) {
        s[b] += x[b * K + k];
      }
    }
  }

  /** Column sums: the shared element is indexed by the inner grid variable. */
  @Operator
  public static void colSums(
      @Dim int B, @Dim int K, @Shape("B, K") float[] x, @Out @Reduce @Shape("K") float[] s) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int k = 0; k < K; k++) {
        s[k] += x[b * K + k];
      }
    }
  }

  /** A grid operator with no parallel loop is one worker: an inclusive prefix sum. */
  @Operator
  public static void prefixSum(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    float acc = 0f;
    for (int i = 0; i < N; i++) {
      acc += x[i];
      out[i] = acc;
    }
  }
}
