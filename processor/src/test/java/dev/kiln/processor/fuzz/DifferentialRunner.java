package dev.kiln.processor.fuzz;

import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Runs every operator of a compiled generated class as plain Java and as its Kiln kernel on the
 * same seeded random arguments, and describes every disagreement.
 *
 * <ul>
 *   <li>Elementwise operators: the scalar kernel on random arguments (some special: NaN, ±0,
 *       infinities, extremes), then every map launcher (all-array, and for up to three parameters
 *       each mix of arrays and scalars; inputs of length 1 broadcast; sometimes 10k elements, past
 *       the executor's grain), each element against the plain method. Results must be
 *       bit-identical.
 *   <li>Grid operators, and composites (their fused launcher against the plain calls): each size set; outputs ({@code @Out}) must be bit-identical, inputs
 *       untouched, int reductions and float {@code max}/{@code min} reductions identical, float
 *       sums within a relative {@code 1e-4} (double: {@code 1e-12}), or {@code 2 n u} for n terms
 *       when larger, of the sum of |terms|, which the operator's twin computes. Then, at the first
 *       sizes, the operator in place (an output passed as an input): refused naming the operator
 *       and both parameters, or bit-identical to the plain method called the same way.
 * </ul>
 *
 * A reference (plain method) that throws means the generator made an invalid operator, and is
 * reported too.
 */
final class DifferentialRunner {
  private static final int SCALAR_TRIALS = 150;

  private final Class<?> ops;
  private final Class<?> kernels;
  private final SplittableRandom r;
  private final List<String> problems = new ArrayList<>();

  DifferentialRunner(Class<?> ops, Class<?> kernels, long seed) {
    this.ops = ops;
    this.kernels = kernels;
    this.r = new SplittableRandom(seed ^ 0x5DEECE66DL);
  }

  /** Runs every operator; returns the disagreements (empty when all agree). */
  List<String> run(List<OperatorSpec> operators) throws ReflectiveOperationException {
    for (OperatorSpec op : operators) {
      if (op instanceof OperatorSpec.Elementwise e) {
        elementwise(e);
      } else {
        grid((OperatorSpec.Grid) op);
      }
      if (problems.size() > 5) {
        break;
      }
    }
    return problems;
  }

  // ---- elementwise ----

  private void elementwise(OperatorSpec.Elementwise op) throws ReflectiveOperationException {
    Class<?>[] types = op.paramTypes().stream().map(FuzzType::primitive).toArray(Class<?>[]::new);
    Method plain = ops.getMethod(op.name(), types);
    Method kernel = kernels.getMethod(op.name(), types);
    for (int trial = 0; trial < SCALAR_TRIALS; trial++) {
      Object[] args = new Object[types.length];
      for (int k = 0; k < args.length; k++) {
        args[k] = Values.scalar(r, op.paramTypes().get(k), 20);
      }
      Outcome expected = call(plain, args);
      Outcome actual = call(kernel, args);
      if (!expected.agrees(actual)) {
        problems.add(op.name() + Arrays.toString(args) + ": plain " + expected + ", kernel " + actual);
        return;
      }
    }
    if (op.mappable()) {
      int n = op.paramTypes().size();
      int masks = n <= 3 ? (1 << n) - 1 : 1;
      for (int scalars = 0; scalars < masks; scalars++) {
        map(op, plain, scalars);
      }
    }
  }

  /** The map launcher whose parameters with a bit set in {@code scalars} are plain values. */
  private void map(OperatorSpec.Elementwise op, Method plain, int scalars) throws ReflectiveOperationException {
    int n = r.nextInt(5) == 0 ? 9_000 + r.nextInt(4_000) : 1 + r.nextInt(40);
    int arity = op.paramTypes().size();
    Class<?>[] types = new Class<?>[arity + 1];
    Object[] args = new Object[arity + 1];
    for (int k = 0; k < arity; k++) {
      FuzzType t = op.paramTypes().get(k);
      boolean scalar = (scalars & (1 << k)) != 0;
      types[k] = scalar ? t.primitive() : t.array();
      args[k] = scalar ? Values.scalar(r, t, 20) : Values.array(r, t, r.nextInt(4) == 0 ? 1 : n, 20);
    }
    types[arity] = op.result().array();
    args[arity] = Values.array(r, op.result(), n, 0);
    String launcher = op.name() + Arrays.toString(types).replace("class ", "");
    Method kernel;
    try {
      kernel = kernels.getMethod(op.name(), types);
    } catch (NoSuchMethodException e) {
      problems.add("map launcher " + launcher + " is missing");
      return;
    }
    Outcome run = call(kernel, args);
    if (run.thrown != null) {
      problems.add("map launcher " + launcher + " threw " + run);
      return;
    }
    for (int i = 0; i < n; i++) {
      Object[] element = new Object[arity];
      for (int k = 0; k < arity; k++) {
        Object a = args[k];
        element[k] = a.getClass().isArray() ? Array.get(a, Array.getLength(a) == 1 ? 0 : i) : a;
      }
      Outcome expected = call(plain, element);
      Object actual = Array.get(args[arity], i);
      if (expected.thrown != null || !Values.sameBits(expected.value, actual)) {
        problems.add("map launcher " + launcher + " at [" + i + "] of " + n + ", arguments " + Arrays.toString(element)
            + ": plain " + expected + ", kernel " + Values.describe(actual));
        return;
      }
    }
  }

  // ---- grid ----

  private void grid(OperatorSpec.Grid op) throws ReflectiveOperationException {
    Class<?>[] types = op.params().stream().map(OperatorSpec::javaType).toArray(Class<?>[]::new);
    Method plain = ops.getMethod(op.name(), types);
    Method kernel = kernels.getMethod(op.name(), types);
    Method twin = op.absTwin() == null ? null : ops.getMethod(op.absTwin(), types);
    for (int s = 0; s < op.sizes().size(); s++) {
      Map<String, Integer> sizes = op.sizes().get(s);
      boolean large = s > 0;
      Object[] initial = arguments(op, sizes, large ? 0 : 2);
      Object[] plainArgs = Values.copyAll(initial);
      Object[] kernelArgs = Values.copyAll(initial);
      String where = op.name() + " with " + sizes + scalars(op, initial);
      Outcome expected = call(plain, plainArgs);
      if (expected.thrown != null) {
        problems.add(where + ": the plain method " + expected + " (a generator bug)");
        return;
      }
      Outcome actual = call(kernel, kernelArgs);
      if (actual.thrown != null) {
        problems.add(where + ": the kernel " + actual + " where the plain method did not");
        return;
      }
      Object[] bounds = null;
      if (twin != null) {
        bounds = Values.copyAll(initial);
        for (int k = 0; k < bounds.length; k++) {
          if (op.params().get(k) instanceof OperatorSpec.Array a && a.role() == OperatorSpec.Role.REDUCE) {
            absolute(bounds[k]);
          }
        }
        call(twin, bounds);
      }
      for (int k = 0; k < types.length; k++) {
        if (op.params().get(k) instanceof OperatorSpec.Array a) {
          String problem = compare(a, initial[k], plainArgs[k], kernelArgs[k], bounds == null ? null : bounds[k], op.work().get(s));
          if (problem != null) {
            problems.add(where + ": " + problem);
            return;
          }
        }
      }
      if (s == 0) {
        String problem = inPlace(op, plain, kernel, initial);
        if (problem != null) {
          problems.add(where + ", in place: " + problem);
          return;
        }
      }
    }
  }

  /**
   * The operator called with an {@code @Out} array passed again as an input of the same type and
   * length (the first such pair): the launcher must refuse it with an IllegalArgumentException
   * naming the operator and both parameters, or, where the compiler proved it safe in place, give
   * the plain method's bits called the same way. Operators with {@code @Reduce} outputs are left out.
   */
  private String inPlace(OperatorSpec.Grid op, Method plain, Method kernel, Object[] initial) throws IllegalAccessException {
    List<OperatorSpec.Param> params = op.params();
    if (params.stream().anyMatch(p -> p instanceof OperatorSpec.Array a && a.role() == OperatorSpec.Role.REDUCE)) {
      return null;
    }
    for (int o = 0; o < params.size(); o++) {
      if (!(params.get(o) instanceof OperatorSpec.Array out) || out.role() != OperatorSpec.Role.OUT) {
        continue;
      }
      for (int i = 0; i < params.size(); i++) {
        if (!(params.get(i) instanceof OperatorSpec.Array in) || in.role() != OperatorSpec.Role.IN
            || in.element() != out.element() || Array.getLength(initial[i]) != Array.getLength(initial[o])) {
          continue;
        }
        Object[] plainArgs = Values.copyAll(initial);
        plainArgs[o] = plainArgs[i];
        Object[] kernelArgs = Values.copyAll(initial);
        kernelArgs[o] = kernelArgs[i];
        Outcome expected = call(plain, plainArgs);
        Outcome actual = call(kernel, kernelArgs);
        if (actual.thrown instanceof IllegalArgumentException e) {
          String m = String.valueOf(e.getMessage());
          return m.contains(op.name()) && m.contains("'" + out.name() + "'") && m.contains("'" + in.name() + "'") ? null
              : "refused with a message that does not name the operator and both parameters: " + m;
        }
        if (expected.thrown != null || actual.thrown != null) {
          return "'" + out.name() + "' passed as '" + in.name() + "': plain " + expected + ", kernel " + actual;
        }
        for (int k = 0; k < params.size(); k++) {
          if (params.get(k) instanceof OperatorSpec.Array a && a.role() == OperatorSpec.Role.OUT
              && Values.firstDifference(plainArgs[k], kernelArgs[k]) >= 0) {
            int at = Values.firstDifference(plainArgs[k], kernelArgs[k]);
            return "'" + out.name() + "' passed as '" + in.name() + "' and allowed, but '" + a.name() + "'[" + at
                + "] differs: plain " + Values.describe(Array.get(plainArgs[k], at)) + ", kernel "
                + Values.describe(Array.get(kernelArgs[k], at));
          }
        }
        return null;
      }
    }
    return null;
  }

  private String compare(OperatorSpec.Array a, Object initial, Object expected, Object actual, Object bound, long terms) {
    if (a.role() == OperatorSpec.Role.IN) {
      int i = Values.firstDifference(initial, actual);
      return i < 0 ? null : "the kernel changed input '" + a.name() + "'[" + i + "]";
    }
    boolean exact = a.role() == OperatorSpec.Role.OUT || !a.element().isFloating() || a.reduce() != OperatorSpec.ReduceKind.SUM;
    int n = Array.getLength(expected);
    for (int i = 0; i < n; i++) {
      Object e = Array.get(expected, i);
      Object g = Array.get(actual, i);
      if (exact) {
        if (!Values.sameBits(e, g)) {
          return (a.role() == OperatorSpec.Role.OUT ? "output '" : a.reduce() + " reduction '") + a.name() + "'[" + i + "] of " + n
              + ": plain " + Values.describe(e) + ", kernel " + Values.describe(g);
        }
        continue;
      }
      double x = ((Number) e).doubleValue();
      double y = ((Number) g).doubleValue();
      double sumOfMagnitudes = ((Number) Array.get(bound, i)).doubleValue();
      if (!Double.isFinite(sumOfMagnitudes) || Values.sameBits(e, g)) {
        continue; // an overflowing or NaN sum may come out either way
      }
      // Each order of n additions is within (n - 1) u sum|terms| of the exact sum, so the two
      // differ by at most 2 n u sum|terms| (a sum of many equal terms does come near that bound).
      // Int, max and min reductions, compared exactly, check the combination of chunks closely.
      double unit = a.element() == FuzzType.FLOAT ? 0x1p-24 : 0x1p-53;
      double relative = Math.max(a.element() == FuzzType.FLOAT ? 1e-4 : 1e-12, 2 * unit * terms);
      if (!(Math.abs(x - y) <= relative * sumOfMagnitudes)) {
        return "sum reduction '" + a.name() + "'[" + i + "] of " + n + ": plain " + Values.describe(e) + ", kernel "
            + Values.describe(g) + ", sum of |terms| " + sumOfMagnitudes + ", tolerance " + relative * sumOfMagnitudes;
      }
    }
    return null;
  }

  private Object[] arguments(OperatorSpec.Grid op, Map<String, Integer> sizes, int specialPercent) {
    Object[] args = new Object[op.params().size()];
    for (int k = 0; k < args.length; k++) {
      OperatorSpec.Param p = op.params().get(k);
      if (p instanceof OperatorSpec.Dim d) {
        args[k] = sizes.get(d.name());
      } else if (p instanceof OperatorSpec.Scalar s) {
        args[k] = Values.scalar(r, s.type(), specialPercent);
      } else {
        OperatorSpec.Array a = (OperatorSpec.Array) p;
        args[k] = Values.array(r, a.element(), Math.toIntExact(a.length(sizes)), specialPercent);
      }
    }
    return args;
  }

  private static String scalars(OperatorSpec.Grid op, Object[] args) {
    StringBuilder b = new StringBuilder();
    for (int k = 0; k < args.length; k++) {
      if (op.params().get(k) instanceof OperatorSpec.Scalar s) {
        b.append(b.length() == 0 ? " and " : ", ").append(s.name()).append('=').append(Values.describe(args[k]));
      }
    }
    return b.toString();
  }

  private static void absolute(Object array) {
    for (int i = 0; i < Array.getLength(array); i++) {
      Object v = Array.get(array, i);
      if (v instanceof Float f) {
        Array.set(array, i, Math.abs(f));
      } else if (v instanceof Double d) {
        Array.set(array, i, Math.abs(d));
      }
    }
  }

  // ---- calls ----

  /** What a call returned or threw. */
  private record Outcome(Object value, Throwable thrown) {
    boolean agrees(Outcome other) {
      return thrown == null && other.thrown == null && Values.sameBits(value, other.value);
    }

    @Override
    public String toString() {
      return thrown != null ? "threw " + thrown : Values.describe(value);
    }
  }

  private static Outcome call(Method m, Object[] args) throws IllegalAccessException {
    try {
      return new Outcome(m.invoke(null, args), null);
    } catch (InvocationTargetException e) {
      return new Outcome(null, e.getCause());
    }
  }
}
