package dev.kiln.tests.ops;

import static dev.kiln.KMath.*;

import dev.kiln.KMath;
import dev.kiln.Operator;

/**
 * Elementwise operators: scalar parameters, a scalar result. Kiln generates a scalar method and
 * array "map" launchers for each (where every type is float, double or int).
 *
 * <p>This class declares its own {@code sigmoid} and {@code tanh}, which shadow the statically
 * imported {@link KMath} functions of the same names; calls meant for KMath are qualified.
 */
public final class Activations {
  private Activations() {}

  /** Constants of the tanh approximation of GELU: sqrt(2/pi) and the cubic coefficient. */
  static final float SQRT_2_OVER_PI = 0.7978845608f;

  static final float GELU_CUBIC = 0.044715f;

  /** The logistic function, in the form that never overflows: early return, a local. */
  @Operator
  public static float sigmoid(float x) {
    if (x >= 0f) {
      return 1f / (1f + exp(-x));
    }
    float e = exp(x);
    return e / (1f + e);
  }

  /** A plain wrapper of {@link KMath#tanh(float)}. */
  @Operator
  public static float tanh(float x) {
    return KMath.tanh(x);
  }

  /** {@code ?:}. */
  @Operator
  public static float relu(float x) {
    return x > 0f ? x : 0f;
  }

  /** Early return inside an {@code if}; two parameters. */
  @Operator
  public static float leakyRelu(float x, float slope) {
    if (x >= 0f) {
      return x;
    }
    return slope * x;
  }

  /** GELU, exact form with the error function. */
  @Operator
  public static float gelu(float x) {
    return 0.5f * x * (1f + erf(x * 0.70710678f));
  }

  /** GELU, tanh approximation: {@code static final} constants, a local, KMath.tanh qualified. */
  @Operator
  public static float geluTanh(float x) {
    float inner = SQRT_2_OVER_PI * (x + GELU_CUBIC * x * x * x);
    return 0.5f * x * (1f + KMath.tanh(inner));
  }

  /** Swish (SiLU): calls another operator of this class, which Kiln inlines. */
  @Operator
  public static float swish(float x) {
    return x * sigmoid(x);
  }

  /** Softsign: a {@code Math.*} call. */
  @Operator
  public static float softsign(float x) {
    return x / (1f + Math.abs(x));
  }

  /** Three parameters; if / else-if assigning a local. */
  @Operator
  public static float clamp(float x, float lo, float hi) {
    float y = x;
    if (y < lo) {
      y = lo;
    } else if (y > hi) {
      y = hi;
    }
    return y;
  }

  /** Double precision: softplus, linear above a threshold. */
  @Operator
  public static double softplus(double x) {
    if (x > 20.0) {
      return x;
    }
    return log(1.0 + exp(x));
  }

  /** Int arithmetic: a modulus that is never negative for a positive {@code m}. */
  @Operator
  public static int floorMod(int a, int m) {
    int r = a % m;
    if (r < 0) {
      r = r + m;
    }
    return r;
  }

  /** A boolean parameter: only a scalar method is generated (no map launcher). */
  @Operator
  public static float select(boolean c, float a, float b) {
    return c ? a : b;
  }

  /** Long arithmetic (wraps on overflow): only a scalar method is generated. */
  @Operator
  public static long mulAddLong(long a, long b, int c) {
    return a * b + c;
  }
}
