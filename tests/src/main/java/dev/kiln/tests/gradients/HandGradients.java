package dev.kiln.tests.gradients;

import static dev.kiln.KMath.*;

import dev.kiln.Dim;
import dev.kiln.Gradient;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Shape;

/**
 * Hand-written gradients ({@code @Gradient}) beside operators whose gradient Kiln derives: each
 * hand-written one has a twin without, so tests can show that both agree, and the composite's
 * backward pass uses the hand-written gradient of the operator it calls.
 */
public final class HandGradients {
  private HandGradients() {}

  @Operator
  public static float softplus(float x) {
    return log(1f + exp(x));
  }

  /** Named otherwise than {@code softplusGrad}: Kiln also generates {@code softplusGrad} calling it. */
  @Gradient(of = "softplus")
  public static float softplusBackward(float x, float y, float dy) {
    return dy * sigmoid(x);
  }

  /** The twin of {@link #softplus} without a hand-written gradient. */
  @Operator
  public static float softplusDerived(float x) {
    return log(1f + exp(x));
  }

  @Operator
  public static void cube(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = x[i] * x[i] * x[i];
    }
  }

  @Gradient(of = "cube")
  public static void cubeGrad(@Dim int N, @Shape("N") float[] x, @Shape("N") float[] y, @Shape("N") float[] dy,
      @Out @Shape("N") float[] dx) {
    for (@Parallel int i = 0; i < N; i++) {
      dx[i] = 3f * x[i] * x[i] * dy[i];
    }
  }

  /** The twin of {@link #cube} without a hand-written gradient. */
  @Operator
  public static void cubeDerived(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = x[i] * x[i] * x[i];
    }
  }

  /** Its backward pass expands {@link #cubeGrad} at the call of {@link #cube}. */
  @Operator
  public static void cubeTwice(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    float[] t = new float[N];
    cube(N, x, t);
    cube(N, t, y);
  }

  /** The same with the derived gradient. */
  @Operator
  public static void cubeTwiceDerived(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    float[] t = new float[N];
    cubeDerived(N, x, t);
    cubeDerived(N, t, y);
  }
}
