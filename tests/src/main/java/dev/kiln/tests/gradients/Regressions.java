package dev.kiln.tests.gradients;

import static dev.kiln.KMath.*;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Reduce;
import dev.kiln.Shape;

/** Minimal operators from gradient bugs the fuzzer found; the finite-difference check runs on each. */
public final class Regressions {
  private Regressions() {}

  /** The branch not taken must pass no NaN: sqrt's derivative at x < 0 is NaN, but the gradient there is 0. */
  @Operator
  public static float safeSqrt(float x) {
    return x > 0f ? sqrt(x) : 0f;
  }

  /** The same inside a grid operator. */
  @Operator
  public static void safeSqrtMap(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = x[i] > 0f ? sqrt(x[i]) : 0f;
    }
  }

  /**
   * An offset read whose gather covers part of the input: elements nobody reads must get 0, even
   * where the fused kernel recomputes the adjoint (sqrt's derivative at 0 is infinite).
   */
  @Operator
  public static void offsetSqrt(@Dim int M, @Dim int B, @Shape("B, M + 2") float[] bias, @Out @Shape("M, B") double[] d) {
    for (@Parallel int out = 0; out < B; out++) {
      for (@Parallel int hi = 0; hi < M; hi++) {
        d[hi * B + out] = Math.sqrt((double) abs(bias[out * (M + 2) + (hi + 1)]) + 1.0);
      }
    }
  }

  /** A @Reduce max over the same value read K times: the gradient is 1, not K (ties split evenly). */
  @Operator
  public static void repeatedMax(@Dim int N, @Dim int K, @Shape("N") float[] x, @Out @Reduce @Shape("N") float[] m) {
    for (@Parallel int i = 0; i < N; i++) {
      for (int k = 0; k < K; k++) {
        m[i] = max(m[i], x[i]);
      }
    }
  }

  /** A running max over the same value read K times: the gradient goes to the first iteration only. */
  @Operator
  public static void repeatedRunningMax(@Dim int N, @Dim int K, @Shape("N") float[] x, @Out @Shape("N") float[] m) {
    for (@Parallel int i = 0; i < N; i++) {
      float best = -1e30f;
      for (int k = 0; k < K; k++) {
        best = max(best, x[i]);
      }
      m[i] = best;
    }
  }

  /** {@code float s += double term}: Java rounds the double sum to float each step; the gradient sees a sum. */
  @Operator
  public static void floatSumOfDoubles(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      float s = 0f;
      for (int k = 0; k < N; k++) {
        s += x[b * N + k] * 0.75 - 0.25 * x[b * N + k] * x[b * N + k];
      }
      y[b] = s;
    }
  }

  /** A running maximum written with {@code if}: its gradient goes to the first maximum, as max's does. */
  @Operator
  public static void rowMaxIf(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      float m = -1e30f;
      for (int k = 0; k < N; k++) {
        float v = x[b * N + k];
        if (v > m) m = v;
      }
      y[b] = m;
    }
  }

  /** A running minimum written with {@code if} and the comparison the other way round. */
  @Operator
  public static void rowMinIf(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      float m = 1e30f;
      for (int k = 0; k < N; k++) {
        if (m > x[b * N + k]) {
          m = x[b * N + k];
        }
      }
      y[b] = m;
    }
  }

  /** Conditional accumulation: {@code if (c) s += t} (and {@code -=}), the condition from the data. */
  @Operator
  public static void conditionalSum(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("B, N") float[] w,
      @Out @Shape("B") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      float s = 0f;
      for (int k = 0; k < N; k++) {
        if (w[b * N + k] > 0f) s += x[b * N + k] * w[b * N + k];
        if (x[b * N + k] < -0.5f) s -= x[b * N + k] * x[b * N + k];
      }
      y[b] = s;
    }
  }

  /** A read shifted by an int argument, guarded: its gradient scatters back by the same shift. */
  @Operator
  public static void shiftedBy(@Dim int N, @Shape("N") float[] x, int k, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = i + k < N ? x[i + k] * x[i] : 0f;
    }
  }

  /** {@code min(table[1], 0)} where {@code 2x > 1}, else a function of {@code x}: two stores under opposite conditions. */
  @Operator
  public static void pickExp(@Dim int N, @Shape("N") float[] x, @Shape("2") float[] table, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      float v = x[i] * 2f; // x read once: its gradient is written by the adjoint kernel itself
      if (v > 1f) {
        y[i] = min(table[1], 0f); // at most 0: the second call takes its else branch there
      } else {
        y[i] = exp(min(v, 2f)) + tanh(v) * sigmoid(v); // costly enough that the merger stores its adjoint, not recomputes it
      }
    }
  }

  /**
   * pickExp twice, fused: the first call's adjoint reads the gradient of {@code t} only where its
   * own {@code 2x <= 1} (a guarded load, zero elsewhere), and the merger forwarded the second
   * call's stored gradient into it without that guard, so {@code dx} got terms where {@code t} does
   * not depend on {@code x} (found by composite fuzzing, seed 54).
   */
  @Operator
  public static void pickExpTwice(@Dim int N, @Shape("N") float[] x, @Shape("2") float[] a, @Shape("2") float[] b,
      @Out @Shape("N") float[] y) {
    float[] t = new float[N];
    pickExp(N, x, a, t);
    pickExp(N, t, b, y);
  }
}
