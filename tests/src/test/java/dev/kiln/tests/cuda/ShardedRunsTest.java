package dev.kiln.tests.cuda;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.kiln.Operator;
import dev.kiln.testing.Json;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The shard pass's proofs put to the test: every operator of the suite that its {@code
 * <Class>.shards.json} says can be split is run on the CPU in 2 and 3 parts along that size, each
 * part its generated launcher on its slices of the {@code rows} arrays (the {@code whole} ones
 * whole, {@code @Reduce} ones from the identity, {@code @Offset} ones plus the part's first row,
 * sums over the split size from fresh arrays, added),
 * the way {@code kiln-spark} runs it, and compared with one call of the launcher on all rows: the
 * rows bit for bit, the reductions within the suite's tolerance; and the same for each derived
 * gradient {@code fGrad} with a plan, on the arguments of the CUDA gradient runs (its weight
 * gradients, sums over the split size, added from the parts). A plan that splits an operator whose
 * rows depend on each other fails here.
 */
class ShardedRunsTest {
  private static final int SIZE = 37;

  @TestFactory
  Stream<DynamicTest> splitRunsAreTheWholeCallsResults() {
    List<DynamicTest> tests = new ArrayList<>();
    for (Class<?> owner : OperatorRuns.OPERATOR_CLASSES) {
      Map<String, Map<String, Object>> plans = plans(owner);
      for (Method op : owner.getDeclaredMethods()) {
        if (!op.isAnnotationPresent(Operator.class) || !Modifier.isStatic(op.getModifiers()) || op.getReturnType() != void.class) {
          continue;
        }
        Map<String, Object> plan = plans.get(op.getName());
        if (plan != null && plan.get("shard") instanceof Map<?, ?> shard) {
          for (int parts : new int[] {2, 3}) {
            tests.add(DynamicTest.dynamicTest(owner.getSimpleName() + "." + op.getName() + " in " + parts + " parts",
                () -> run(owner, op, cast(shard), parts)));
          }
        }
        Map<String, Object> gradientPlan = plans.get(op.getName() + "Grad");
        if (gradientPlan != null && gradientPlan.get("shard") instanceof Map<?, ?> shard) {
          for (int parts : new int[] {2, 3}) {
            tests.add(DynamicTest.dynamicTest(owner.getSimpleName() + "." + op.getName() + "Grad in " + parts + " parts",
                () -> runGradient(op, cast(shard), parts)));
          }
        }
      }
    }
    return tests.stream();
  }

  /** The suite splits enough operators for the test above to mean something. */
  @Test
  void mostOperatorsOfTheSuiteCanBeSplit() {
    int split = 0;
    int all = 0;
    for (Class<?> owner : OperatorRuns.OPERATOR_CLASSES) {
      for (Map<String, Object> plan : plans(owner).values()) {
        all++;
        split += plan.get("shard") instanceof Map ? 1 : 0;
      }
    }
    assertTrue(split * 2 > all, split + " of " + all + " operators (derived gradients included) have a shard plan");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> cast(Object o) {
    return (Map<String, Object>) o;
  }

  static Map<String, Map<String, Object>> plans(Class<?> owner) {
    String resource = "META-INF/kiln/" + owner.getName().replace('.', '/') + ".shards.json";
    try (InputStream in = owner.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        return Map.of(); // a class of elementwise operators only has no plans
      }
      Map<String, Object> root = cast(Json.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
      Map<String, Map<String, Object>> byName = new java.util.LinkedHashMap<>();
      for (Object o : (List<?>) root.get("operators")) {
        Map<String, Object> op = cast(o);
        byName.put((String) op.get("name"), op);
      }
      return byName;
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static Method launcher(Class<?> owner, Method op) throws ClassNotFoundException, NoSuchMethodException {
    Class<?> kernels = Class.forName(owner.getName() + "Kernels");
    return kernels.getMethod(op.getName(), op.getParameterTypes());
  }

  private static void run(Class<?> owner, Method op, Map<String, Object> shard, int parts) throws Exception {
    Parameter[] params = op.getParameters();
    Map<String, Integer> dims = OperatorRuns.dims(params, SIZE);
    Object[] args = OperatorRuns.gridArguments(params, dims, new SplittableRandom(SIZE * 7L + op.getName().hashCode()));
    compare(launcher(owner, op), args, dims, shard, parts);
  }

  /** The gradient launcher {@code fGrad}, on the arguments the CUDA gradient runs use. */
  private static void runGradient(Method op, Map<String, Object> shard, int parts) throws Exception {
    Method launcher = GradientRuns.gridLauncher(op);
    org.junit.jupiter.api.Assumptions.assumeTrue(launcher != null, "no float[] gradient launcher of this signature");
    Map<String, Integer> dims = OperatorRuns.dims(op.getParameters(), SIZE);
    compare(launcher, GradientRuns.gridArguments(op, launcher, SIZE), dims, shard, parts);
  }

  private static void compare(Method launcher, Object[] args, Map<String, Integer> dims, Map<String, Object> shard, int parts)
      throws Exception {
    List<?> roles = (List<?>) shard.get("params");
    String dim = (String) shard.get("dim");
    int rows = dims.get(dim);
    Parameter[] params = launcher.getParameters();
    Class<?> owner = launcher.getDeclaringClass();
    String opName = launcher.getName();
    Object[] whole = HostData.copy(args);
    try {
      launcher.invoke(null, whole);
    } catch (InvocationTargetException e) {
      // the inputs are outside the operator's domain (an index out of its table): nothing to compare
      org.junit.jupiter.api.Assumptions.assumeTrue(false, "the whole call threw " + e.getCause());
    }
    Object[] split = HostData.copy(args);
    List<Object[]> partials = new ArrayList<>();
    for (int p = 0; p < parts; p++) {
      int first = rows * p / parts;
      int last = rows * (p + 1) / parts;
      Object[] call = new Object[args.length];
      for (int i = 0; i < args.length; i++) {
        String role = (String) cast(roles.get(i)).get("role");
        switch (role) {
          case "shard-size" -> call[i] = last - first;
          case "offset" -> call[i] = (Integer) args[i] + first;
          case "rows" -> {
            int per = Array.getLength(args[i]) / Math.max(rows, 1);
            Object slice = Array.newInstance(args[i].getClass().getComponentType(), (last - first) * per);
            System.arraycopy(split[i], first * per, slice, 0, (last - first) * per);
            call[i] = slice;
          }
          case "reduce" -> call[i] = identity(args[i], (String) cast(roles.get(i)).get("reduce"));
          case "sum" -> call[i] = Array.newInstance(args[i].getClass().getComponentType(), Array.getLength(args[i]));
          default -> call[i] = split[i];
        }
      }
      launcher.invoke(null, call);
      for (int i = 0; i < args.length; i++) {
        if ("rows".equals(cast(roles.get(i)).get("role"))) {
          int per = Array.getLength(args[i]) / Math.max(rows, 1);
          System.arraycopy(call[i], 0, split[i], first * per, (last - first) * per);
        }
      }
      partials.add(call);
    }
    for (int i = 0; i < args.length; i++) {
      Map<String, Object> role = cast(roles.get(i));
      String what = owner.getSimpleName() + "." + opName + "." + params[i].getName() + " (" + role.get("role") + ")";
      if ("reduce".equals(role.get("role")) || "sum".equals(role.get("role"))) {
        String kind = (String) role.get("reduce");
        if ("sum".equals(role.get("role"))) {
          split[i] = identity(args[i], kind); // the operator writes the sum: the caller's content goes
        }
        for (Object[] call : partials) {
          fold(split[i], call[i], kind);
        }
        HostData.assertClose(what, whole[i], split[i]);
      } else if (split[i] != null && split[i].getClass().isArray() && !sameBits(whole[i], split[i])) {
        fail(what + ": the split run differs from the whole call");
      }
    }
  }

  private static boolean sameBits(Object a, Object b) {
    if (a instanceof float[] x) return Arrays.equals(x, (float[]) b);
    if (a instanceof double[] x) return Arrays.equals(x, (double[]) b);
    if (a instanceof int[] x) return Arrays.equals(x, (int[]) b);
    if (a instanceof long[] x) return Arrays.equals(x, (long[]) b);
    if (a instanceof short[] x) return Arrays.equals(x, (short[]) b);
    return Arrays.equals((byte[]) a, (byte[]) b);
  }

  private static Object identity(Object like, String kind) {
    Object a = Array.newInstance(like.getClass().getComponentType(), Array.getLength(like));
    for (int i = 0; i < Array.getLength(a); i++) {
      double v = switch (kind) { case "*" -> 1; case "max" -> Double.NEGATIVE_INFINITY; case "min" -> Double.POSITIVE_INFINITY; default -> 0; };
      if (a instanceof float[] f) f[i] = (float) v;
      else if (a instanceof double[] d) d[i] = v;
      else if (a instanceof int[] n) n[i] = kind.equals("max") ? Integer.MIN_VALUE : kind.equals("min") ? Integer.MAX_VALUE : (int) v;
      else ((long[]) a)[i] = kind.equals("max") ? Long.MIN_VALUE : kind.equals("min") ? Long.MAX_VALUE : (long) v;
    }
    return a;
  }

  /** {@code into[i] = into[i] op part[i]}, parts folded in order (the runner's tree is checked in kiln-spark). */
  private static void fold(Object into, Object part, String kind) {
    for (int i = 0; i < Array.getLength(into); i++) {
      if (into instanceof float[] x) {
        float y = ((float[]) part)[i];
        x[i] = switch (kind) { case "*" -> x[i] * y; case "max" -> Math.max(x[i], y); case "min" -> Math.min(x[i], y); default -> x[i] + y; };
      } else if (into instanceof double[] x) {
        double y = ((double[]) part)[i];
        x[i] = switch (kind) { case "*" -> x[i] * y; case "max" -> Math.max(x[i], y); case "min" -> Math.min(x[i], y); default -> x[i] + y; };
      } else if (into instanceof int[] x) {
        int y = ((int[]) part)[i];
        x[i] = switch (kind) { case "*" -> x[i] * y; case "max" -> Math.max(x[i], y); case "min" -> Math.min(x[i], y); default -> x[i] + y; };
      } else {
        long[] x = (long[]) into;
        long y = ((long[]) part)[i];
        x[i] = switch (kind) { case "*" -> x[i] * y; case "max" -> Math.max(x[i], y); case "min" -> Math.min(x[i], y); default -> x[i] + y; };
      }
    }
  }
}
