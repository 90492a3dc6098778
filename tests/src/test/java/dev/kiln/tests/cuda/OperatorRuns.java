package dev.kiln.tests.cuda;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Shape;
import dev.kiln.tests.fusion.AcrossJars;
import dev.kiln.tests.fusion.Composites;
import dev.kiln.tests.fusion.Edges;
import dev.kiln.tests.fusion.Graphs;
import dev.kiln.tests.fusion.Layouts;
import dev.kiln.tests.fusion.Loops;
import dev.kiln.tests.fusion.Prims;
import dev.kiln.tests.ops.Activations;
import dev.kiln.tests.gradients.HandGradients;
import dev.kiln.tests.gradients.Regressions;
import dev.kiln.tests.gradients.Gradients;
import dev.kiln.tests.ops.Layout;
import dev.kiln.tests.ops.Linear;
import dev.kiln.tests.ops.Lstm;
import dev.kiln.tests.ops.Normalization;
import dev.kiln.tests.ops.Reductions;
import dev.kiln.tests.ops.Stencils;
import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;

/**
 * Every operator of the test suite run through a {@link GpuBackend} and compared with its plain-Java
 * source on the same inputs. Generic: inputs come from each parameter's annotations (sizes from
 * {@code @Dim}, lengths from {@code @Shape}).
 */
final class OperatorRuns {
  static final List<Class<?>> OPERATOR_CLASSES = List.of(
      Activations.class, dev.kiln.tests.ops.DerivedBounds.class, dev.kiln.tests.types.LongArrays.class, dev.kiln.tests.types.NarrowArrays.class, Layout.class, Linear.class, Lstm.class, Normalization.class, Reductions.class, dev.kiln.tests.ops.RowLoops.class, Stencils.class, dev.kiln.tests.ops.RandomOps.class, dev.kiln.tests.records.Records.class,
      Prims.class, Composites.class, Graphs.class, Layouts.class, Loops.class, Edges.class, AcrossJars.class,
      HandGradients.class, Gradients.class,
      Regressions.class, dev.kiln.tests.contraction.Products.class);
  private static final int[] SIZES = {37, 130};

  /**
   * The system property that limits the runs to some of {@link #OPERATOR_CLASSES}, by simple name,
   * comma-separated ({@code EmulatedGpuTest} runs two classes through NVRTC, not all).
   */
  static final String CLASSES_PROPERTY = "kiln.test.operatorClasses";

  private OperatorRuns() {}

  /** {@link #OPERATOR_CLASSES}, or those {@link #CLASSES_PROPERTY} names. */
  static List<Class<?>> operatorClasses() {
    String only = System.getProperty(CLASSES_PROPERTY);
    if (only == null || only.isBlank()) {
      return OPERATOR_CLASSES;
    }
    List<String> names = List.of(only.split(","));
    return OPERATOR_CLASSES.stream().filter(c -> names.contains(c.getSimpleName())).toList();
  }

  /** One dynamic test per operator and size. */
  static Stream<DynamicTest> all(GpuBackend backend) {
    List<DynamicTest> tests = new ArrayList<>();
    for (Class<?> owner : operatorClasses()) {
      for (Method op : owner.getDeclaredMethods()) {
        if (!op.isAnnotationPresent(Operator.class) || !Modifier.isStatic(op.getModifiers())) {
          continue;
        }
        if (op.getReturnType() != void.class && !mappable(op)) {
          continue; // boolean or long elementwise operators have no map launcher, on any device
        }
        for (int size : SIZES) {
          tests.add(DynamicTest.dynamicTest(owner.getSimpleName() + "." + op.getName() + " size " + size, () -> {
            if (op.getReturnType() == void.class) {
              grid(backend, op, size);
            } else {
              map(backend, op, size);
            }
          }));
        }
      }
    }
    return tests.stream();
  }

  static boolean mappable(Method op) {
    return Stream.of(op.getParameterTypes()).allMatch(OperatorRuns::arrayable) && arrayable(op.getReturnType());
  }

  private static boolean arrayable(Class<?> t) {
    return t == float.class || t == double.class || t == int.class;
  }

  /**
   * The sizes of an operator's {@code @Dim}s for a run at {@code size}: distinct, and smaller the
   * more there are (five or more multiply fast: a convolution is CO*OH*OW*CI*KH*KW).
   */
  static Map<String, Integer> dims(Parameter[] params, int size) {
    Map<String, Integer> dims = new HashMap<>();
    int dimCount = (int) Stream.of(params).filter(p -> p.isAnnotationPresent(Dim.class)).count();
    int dimSize = dimCount >= 5 ? Math.max(2, size / 40) : dimCount >= 3 ? Math.max(3, size / 10) : size;
    for (Parameter p : params) {
      if (p.isAnnotationPresent(Dim.class)) {
        dims.put(p.getName(), dimSize + dims.size());
      }
    }
    return dims;
  }

  /** The length of the shortest array parameter under {@code dims}. */
  static int smallestArray(Parameter[] params, Map<String, Integer> dims) {
    int smallest = Integer.MAX_VALUE;
    for (Parameter p : params) {
      if (p.getType().isArray()) {
        smallest = Math.min(smallest, ShapeEval.length(p.getAnnotation(Shape.class).value(), dims));
      }
    }
    return smallest;
  }

  private static void grid(GpuBackend backend, Method op, int size) throws Exception {
    SplittableRandom random = new SplittableRandom(size * 31L + op.getName().hashCode());
    Parameter[] params = op.getParameters();
    Object[] host = gridArguments(params, dims(params, size), random);
    Object[] expected = HostData.copy(host);
    op.invoke(null, expected);
    backend.grid(op, host);
    for (int i = 0; i < params.length; i++) {
      if (params[i].isAnnotationPresent(Out.class)) {
        HostData.assertClose(op.getName() + "." + params[i].getName(), expected[i], host[i]);
      }
    }
  }

  /** Random arguments of a grid operator at sizes {@code dims}: {@link HostData#make} for each parameter. */
  static Object[] gridArguments(Parameter[] params, Map<String, Integer> dims, SplittableRandom random) {
    int smallest = smallestArray(params, dims);
    Object[] host = new Object[params.length];
    for (int i = 0; i < params.length; i++) {
      host[i] = HostData.make(params[i], dims, smallest, random);
    }
    return host;
  }

  /**
   * Random inputs of an elementwise operator's map launcher over {@code n} elements: the first of
   * length n, each other of length n or 1 (broadcast); ints in {@code [1, intBound)}, never 0, since
   * any int may be a divisor in an elementwise operator.
   */
  static Object[] mapInputs(Parameter[] params, int n, int intBound, SplittableRandom random) {
    Object[] inputs = new Object[params.length];
    for (int i = 0; i < params.length; i++) {
      inputs[i] = HostData.array(params[i].getType(), i == 0 || random.nextBoolean() ? n : 1, intBound, random);
      if (inputs[i] instanceof int[] ints) {
        for (int e = 0; e < ints.length; e++) {
          ints[e] = ints[e] == 0 ? 1 : ints[e];
        }
      }
    }
    return inputs;
  }

  /**
   * The plain method of an elementwise operator over {@code n} elements, an input of length 1
   * broadcast: what its map launcher must give.
   *
   * @throws java.lang.reflect.InvocationTargetException what the plain method threw, for the first
   *     element where it threw
   */
  static Object mapExpected(Method op, Object[] inputs, int n) throws ReflectiveOperationException {
    Object expected = Array.newInstance(op.getReturnType(), n);
    Object[] scalar = new Object[inputs.length];
    for (int e = 0; e < n; e++) {
      for (int i = 0; i < inputs.length; i++) {
        scalar[i] = Array.get(inputs[i], Array.getLength(inputs[i]) == 1 ? 0 : e);
      }
      Array.set(expected, e, op.invoke(null, scalar));
    }
    return expected;
  }

  private static void map(GpuBackend backend, Method op, int size) throws Exception {
    SplittableRandom random = new SplittableRandom(size * 17L + op.getName().hashCode());
    int n = size * 100 + 3;
    Parameter[] params = op.getParameters();
    Object[] inputs = mapInputs(params, n, n, random);
    Object expected = mapExpected(op, inputs, n);
    Object out = Array.newInstance(op.getReturnType(), n);
    backend.map(op, inputs, out);
    HostData.assertClose(op.getName(), expected, out);
  }
}
