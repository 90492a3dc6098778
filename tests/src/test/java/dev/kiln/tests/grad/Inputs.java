package dev.kiln.tests.grad;

import dev.kiln.Dim;
import dev.kiln.Out;
import dev.kiln.Shape;
import dev.kiln.testing.Precision;
import java.lang.reflect.Parameter;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Arguments for an operator from its parameters' annotations, after {@code
 * dev.kiln.tests.cuda.OperatorRuns.grid} and {@code HostData.make} (duplicated here: those are
 * package-private), with these differences for differentiation: dims are small ({@code base},
 * {@code base + 1}, ... in declaration order); {@code @Out} arrays, {@code @Reduce} ones included,
 * start zero-filled (the forward outputs are what plain Java computes from fresh arrays); floating
 * scalars, which are constants of the gradient, lie in {@code [0.25, 1)} (an epsilon must be
 * positive); floating arrays lie in {@code [-2, 2)}, or in {@code [0.25, 2)} when {@code positive}
 * (for operators defined only there, such as rsqrt). Int arrays lie in {@code [0, smallest length)}
 * so they index any array; int scalars in {@code [1, 10)} so they divide.
 */
final class Inputs {
  private Inputs() {}

  static Map<String, Integer> dims(Parameter[] params, int base) {
    Map<String, Integer> dims = new HashMap<>();
    for (Parameter p : params) {
      if (p.isAnnotationPresent(Dim.class)) {
        dims.put(p.getName(), base + dims.size());
      }
    }
    return dims;
  }

  static Object[] grid(Parameter[] params, int base, SplittableRandom random, boolean positive) {
    Map<String, Integer> dims = dims(params, base);
    int smallest = Integer.MAX_VALUE;
    for (Parameter p : params) {
      if (p.getType().isArray()) {
        smallest = Math.min(smallest, length(p, dims));
      }
    }
    Object[] args = new Object[params.length];
    for (int i = 0; i < params.length; i++) {
      Parameter p = params[i];
      if (dims.containsKey(p.getName())) {
        args[i] = dims.get(p.getName());
      } else if (!p.getType().isArray()) {
        args[i] = scalar(p.getType(), random);
      } else if (p.isAnnotationPresent(Out.class)) {
        args[i] = zeros(p.getType(), length(p, dims));
      } else {
        args[i] = array(p.getType(), length(p, dims), Math.max(1, smallest), random, positive);
      }
    }
    return args;
  }

  /** A constant of a grid operator: floating values in [0.25, 1). */
  static Object scalar(Class<?> t, SplittableRandom random) {
    return scalar(t, random, 0.25, 1);
  }

  /** An argument of an elementwise operator: floating values in [-2, 2), or [0.25, 2) when positive. */
  static Object operand(Class<?> t, SplittableRandom random, boolean positive) {
    return scalar(t, random, positive ? 0.25 : -2, 2);
  }

  private static Object scalar(Class<?> t, SplittableRandom random, double lo, double hi) {
    if (t == float.class) return (float) random.nextDouble(lo, hi);
    if (t == double.class) return random.nextDouble(lo, hi);
    if (t == int.class) return random.nextInt(1, 10);
    if (t == long.class) return random.nextLong(1, 10);
    return random.nextBoolean();
  }

  static Object array(Class<?> t, int n, int intBound, SplittableRandom random, boolean positive) {
    double lo = positive ? 0.25 : -2;
    if (t == float[].class) {
      float[] a = new float[n];
      for (int i = 0; i < n; i++) a[i] = (float) random.nextDouble(lo, 2);
      return a;
    }
    if (t == double[].class) {
      double[] a = new double[n];
      for (int i = 0; i < n; i++) a[i] = random.nextDouble(lo, 2);
      return a;
    }
    int[] a = new int[n];
    for (int i = 0; i < n; i++) a[i] = random.nextInt(0, intBound);
    return a;
  }

  /** Uniform in [-1, 1) for floating arrays (upstream gradients); zeros for int arrays. */
  static Object upstream(Class<?> t, int n, SplittableRandom random) {
    Object a = zeros(t, n);
    for (int i = 0; i < n; i++) {
      if (a instanceof float[] f) f[i] = (float) random.nextDouble(-1, 1);
      else if (a instanceof double[] d) d[i] = random.nextDouble(-1, 1);
    }
    return a;
  }

  static Object zeros(Class<?> t, int n) {
    return java.lang.reflect.Array.newInstance(t.getComponentType(), n);
  }

  static Object nans(Class<?> t, int n) {
    Object a = zeros(t, n);
    if (a instanceof float[] f) Arrays.fill(f, Float.NaN);
    if (a instanceof double[] d) Arrays.fill(d, Double.NaN);
    return a;
  }

  static int length(Parameter p, Map<String, Integer> dims) {
    return dev.kiln.tests.cuda.ShapeEval.length(p.getAnnotation(Shape.class).value(), dims);
  }

  /** A copy whose arrays are copies. */
  static Object[] copy(Object[] values) {
    Object[] out = values.clone();
    for (int i = 0; i < out.length; i++) {
      out[i] = copyOf(out[i]);
    }
    return out;
  }

  /** A copy of an array; anything else as it is. */
  static Object copyOf(Object v) {
    if (v instanceof float[] a) return a.clone();
    if (v instanceof double[] a) return a.clone();
    if (v instanceof int[] a) return a.clone();
    return v;
  }

  static boolean same(Object a, Object b) {
    return java.util.Objects.deepEquals(a, b);
  }

  static double[] toDoubles(Object array) {
    double[] d = new double[Precision.length(array)];
    for (int j = 0; j < d.length; j++) {
      d[j] = Precision.get(array, j);
    }
    return d;
  }
}
