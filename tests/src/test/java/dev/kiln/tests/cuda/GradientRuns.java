package dev.kiln.tests.cuda;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Shape;
import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;

/**
 * Every gradient launcher of the test suite run through a {@link GpuBackend} and compared with the
 * CPU gradient launcher on the same arguments. For each {@code @Operator f} of {@link
 * OperatorRuns#OPERATOR_CLASSES} with a gradient:
 *
 * <ul>
 *   <li>a grid or composite {@code f}: {@code fGrad(f's parameters, dY per @Out array, dX per
 *       floating non-@Out array)}, called with f's arguments after its plain-Java forward run
 *       (so the outputs it reads are the real ones), random upstream gradients in [-1, 1) and
 *       gradient arrays that start NaN;
 *   <li>an elementwise {@code f}: the map launcher of each scalar gradient ({@code fGrad}, or
 *       {@code fGrad_p} per floating parameter {@code p} when there are several), {@code
 *       out[i] = fGrad(x[i]..., y[i], dy[i])} with {@code y = f(x)}, inputs of length 1 broadcast.
 * </ul>
 *
 * Every array argument, inputs included, must come back as the CPU launcher leaves it (floats
 * within 2e-4 relative, as {@link HostData#assertClose}).
 */
final class GradientRuns {
  private static final int[] SIZES = {37, 130};

  private GradientRuns() {}

  /** One dynamic test per gradient launcher and size. */
  static Stream<DynamicTest> all(GpuBackend backend) throws ClassNotFoundException {
    List<DynamicTest> tests = new ArrayList<>();
    for (Class<?> owner : OperatorRuns.operatorClasses()) {
      List<Method> ops = Stream.of(owner.getDeclaredMethods())
          .filter(m -> m.isAnnotationPresent(Operator.class) && Modifier.isStatic(m.getModifiers()))
          .sorted(Comparator.comparing(Method::getName)).collect(Collectors.toList());
      for (Method op : ops) {
        if (op.getReturnType() == void.class) {
          Method launcher = gridLauncher(op);
          if (launcher == null) {
            continue; // no gradient (dev.kiln.tests.grad.NoGradient says why for each)
          }
          for (int size : SIZES) {
            tests.add(DynamicTest.dynamicTest(owner.getSimpleName() + "." + launcher.getName() + " size " + size,
                () -> grid(backend, op, launcher, size)));
          }
        } else if (OperatorRuns.mappable(op)) {
          for (Method launcher : mapLaunchers(op)) {
            for (int size : SIZES) {
              tests.add(DynamicTest.dynamicTest(owner.getSimpleName() + "." + launcher.getName() + " map size " + size,
                  () -> map(backend, op, launcher, size)));
            }
          }
        }
      }
    }
    return tests.stream();
  }

  static Class<?> kernels(Class<?> owner) throws ClassNotFoundException {
    return Class.forName(owner.getName() + "Kernels");
  }

  /** The CPU launcher {@code fGrad} of grid or composite {@code op}, or null when it has no gradient. */
  static Method gridLauncher(Method op) throws ClassNotFoundException {
    List<Class<?>> types = new ArrayList<>(Arrays.asList(op.getParameterTypes()));
    for (Parameter p : op.getParameters()) {
      if (p.isAnnotationPresent(Out.class)) {
        types.add(p.getType());
      }
    }
    for (Parameter p : op.getParameters()) {
      if (!p.isAnnotationPresent(Out.class) && floating(p.getType())) {
        types.add(p.getType());
      }
    }
    try {
      return kernels(op.getDeclaringClass()).getMethod(op.getName() + "Grad", types.toArray(Class<?>[]::new));
    } catch (NoSuchMethodException e) {
      return null;
    }
  }

  /** The CPU map launchers of {@code op}'s scalar gradients: {@code fGrad(x[]..., y[], dy[], out[])}. */
  static List<Method> mapLaunchers(Method op) throws ClassNotFoundException {
    List<String> floating = Stream.of(op.getParameters())
        .filter(p -> p.getType() == float.class || p.getType() == double.class)
        .map(Parameter::getName).collect(Collectors.toList());
    List<String> names = floating.size() == 1 ? List.of(op.getName() + "Grad")
        : floating.stream().map(p -> op.getName() + "Grad_" + p).collect(Collectors.toList());
    Class<?>[] types = new Class<?>[op.getParameterCount() + 3];
    for (int i = 0; i < op.getParameterCount(); i++) {
      types[i] = op.getParameterTypes()[i].arrayType();
    }
    types[types.length - 3] = op.getReturnType().arrayType();
    types[types.length - 2] = op.getReturnType().arrayType();
    types[types.length - 1] = op.getReturnType().arrayType();
    List<Method> launchers = new ArrayList<>();
    for (String name : names) {
      try {
        launchers.add(kernels(op.getDeclaringClass()).getMethod(name, types));
      } catch (NoSuchMethodException e) {
        // no gradient, or no map launcher for it
      }
    }
    return launchers;
  }

  private static boolean floating(Class<?> t) {
    return t == float[].class || t == double[].class;
  }

  private static void grid(GpuBackend backend, Method op, Method launcher, int size) throws Exception {
    Object[] call = gridArguments(op, launcher, size);
    Object[] expected = HostData.copy(call);
    invoke(launcher, expected);
    Object[] actual = HostData.copy(call);
    backend.gradient(op.getDeclaringClass(), launcher, actual);
    Parameter[] names = launcher.getParameters();
    for (int i = 0; i < expected.length; i++) {
      if (expected[i].getClass().isArray()) {
        HostData.assertClose(launcher.getName() + "." + names[i].getName(), expected[i], actual[i]);
      }
    }
  }

  /**
   * The arguments of {@code op}'s gradient launcher at {@code size}: {@code f}'s arguments after its
   * plain-Java forward run, random upstream gradients in [-1, 1), gradient arrays that start NaN.
   */
  static Object[] gridArguments(Method op, Method launcher, int size) throws Exception {
    SplittableRandom random = new SplittableRandom(size * 41L + launcher.getName().hashCode());
    Parameter[] params = op.getParameters();
    Map<String, Integer> dims = OperatorRuns.dims(params, size);
    int smallest = OperatorRuns.smallestArray(params, dims);
    // f's arguments, @Out ones (@Reduce included) zero-filled, then its forward outputs
    Object[] forward = new Object[params.length];
    for (int i = 0; i < params.length; i++) {
      Parameter p = params[i];
      if (dims.containsKey(p.getName())) {
        forward[i] = dims.get(p.getName());
      } else if (p.getType() == float.class) {
        forward[i] = (float) random.nextDouble(0.25, 1); // constants such as an epsilon: positive
      } else if (p.getType() == double.class) {
        forward[i] = random.nextDouble(0.25, 1);
      } else if (p.getType().isArray() && p.isAnnotationPresent(Out.class)) {
        forward[i] = Array.newInstance(p.getType().getComponentType(),
            ShapeEval.length(p.getAnnotation(Shape.class).value(), dims));
      } else {
        forward[i] = HostData.make(p, dims, smallest, random);
      }
    }
    invoke(op, forward);
    List<Object> call = new ArrayList<>(Arrays.asList(forward));
    for (Parameter p : params) {
      if (p.isAnnotationPresent(Out.class)) {
        int n = ShapeEval.length(p.getAnnotation(Shape.class).value(), dims);
        Object dy = Array.newInstance(p.getType().getComponentType(), n);
        for (int e = 0; e < n; e++) {
          if (dy instanceof float[] f) f[e] = (float) random.nextDouble(-1, 1);
          if (dy instanceof double[] d) d[e] = random.nextDouble(-1, 1);
        }
        call.add(dy);
      }
    }
    for (Parameter p : params) {
      if (!p.isAnnotationPresent(Out.class) && floating(p.getType())) {
        call.add(nans(p.getType(), ShapeEval.length(p.getAnnotation(Shape.class).value(), dims)));
      }
    }
    return call.toArray();
  }

  private static void map(GpuBackend backend, Method op, Method launcher, int size) throws Exception {
    SplittableRandom random = new SplittableRandom(size * 23L + launcher.getName().hashCode());
    int n = size * 100 + 3;
    Parameter[] params = op.getParameters();
    Object[] inputs = new Object[params.length + 2];
    for (int i = 0; i < params.length; i++) {
      inputs[i] = HostData.array(params[i].getType(), i == 0 ? n : (random.nextBoolean() ? n : 1), n, random);
      if (inputs[i] instanceof int[] ints) {
        for (int e = 0; e < ints.length; e++) {
          ints[e] = ints[e] == 0 ? 1 : ints[e]; // any int may be a divisor in an elementwise operator
        }
      }
    }
    // y = f(x...) elementwise, as the forward map would give it; dy random, sometimes broadcast
    Object y = Array.newInstance(op.getReturnType(), n);
    Object[] scalar = new Object[params.length];
    for (int e = 0; e < n; e++) {
      for (int i = 0; i < params.length; i++) {
        int len = Array.getLength(inputs[i]);
        scalar[i] = Array.get(inputs[i], len == 1 ? 0 : e);
      }
      Array.set(y, e, invoke(op, scalar));
    }
    inputs[params.length] = y;
    inputs[params.length + 1] = HostData.array(op.getReturnType(), random.nextInt(4) == 0 ? 1 : n, n, random);
    Object expected = Array.newInstance(op.getReturnType(), n);
    Object[] cpu = Arrays.copyOf(inputs, inputs.length + 1);
    cpu[inputs.length] = expected;
    invoke(launcher, cpu);
    Object out = Array.newInstance(op.getReturnType(), n);
    assertNotNull(out);
    backend.map(op.getDeclaringClass(), launcher.getName(), inputs, out);
    HostData.assertClose(launcher.getName(), expected, out);
  }

  private static Object nans(Class<?> t, int n) {
    if (t == float[].class) {
      float[] a = new float[n];
      Arrays.fill(a, Float.NaN);
      return a;
    }
    double[] a = new double[n];
    Arrays.fill(a, Double.NaN);
    return a;
  }

  private static Object invoke(Method m, Object[] args) throws Exception {
    try {
      return m.invoke(null, args);
    } catch (InvocationTargetException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    }
  }
}
