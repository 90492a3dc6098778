package dev.kiln.tests.grad;

import dev.kiln.Out;
import dev.kiln.testing.Precision;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Finds the gradient launchers that the processor generates for an operator {@code f} of class
 * {@code C}: public static methods of {@code CKernels} with the parameter types the spec gives.
 * Looked up by exact parameter types, so device overloads of the same name never match.
 */
final class Launchers {
  private Launchers() {}

  static Class<?> kernels(Method op) throws ClassNotFoundException {
    return Class.forName(op.getDeclaringClass().getName() + "Kernels");
  }

  /** {@code fGrad(f's parameters, one dY per @Out array, one dX per floating non-@Out array)}. */
  static Class<?>[] gridTypes(Method op) {
    List<Class<?>> types = new ArrayList<>(Arrays.asList(op.getParameterTypes()));
    Parameter[] params = op.getParameters();
    for (Parameter p : params) {
      if (p.isAnnotationPresent(Out.class)) {
        types.add(p.getType());
      }
    }
    for (Parameter p : params) {
      if (p.getType().isArray() && !p.isAnnotationPresent(Out.class) && Precision.floating(p.getType())) {
        types.add(p.getType());
      }
    }
    return types.toArray(Class<?>[]::new);
  }

  /** {@code fGrad(f's parameters, y, dy)}, or {@code fGrad_p} for each floating p when there are several. */
  static List<String> scalarNames(Method op) {
    List<String> floating = Stream.of(op.getParameters())
        .filter(p -> Precision.floating(p.getType())).map(Parameter::getName).collect(Collectors.toList());
    if (floating.size() == 1) {
      return List.of(op.getName() + "Grad");
    }
    return floating.stream().map(p -> op.getName() + "Grad_" + p).collect(Collectors.toList());
  }

  static Class<?>[] scalarTypes(Method op) {
    Class<?>[] types = Arrays.copyOf(op.getParameterTypes(), op.getParameterCount() + 2);
    types[types.length - 2] = op.getReturnType();
    types[types.length - 1] = op.getReturnType();
    return types;
  }

  /** {@code fGrad(x[]..., y[], dy[], dx[])}: expected when f has one floating parameter and a map launcher. */
  static Class<?>[] mapTypes(Method op) {
    List<Class<?>> types = new ArrayList<>();
    Class<?> dx = null;
    for (Class<?> t : op.getParameterTypes()) {
      types.add(t.arrayType());
      dx = Precision.floating(t) ? t.arrayType() : dx;
    }
    types.add(op.getReturnType().arrayType());
    types.add(op.getReturnType().arrayType());
    types.add(dx);
    return types.toArray(Class<?>[]::new);
  }

  /** The public static method of CKernels with this name and these parameter types, or null. */
  static Method find(Method op, String name, Class<?>[] types) throws ClassNotFoundException {
    try {
      return kernels(op).getMethod(name, types);
    } catch (NoSuchMethodException e) {
      return null;
    }
  }

  /** Every method of CKernels named fGrad or fGrad_something, as signatures, for messages. */
  static List<String> allGradients(Method op) throws ClassNotFoundException {
    String grad = op.getName() + "Grad";
    return Stream.of(kernels(op).getDeclaredMethods())
        .filter(m -> m.getName().equals(grad) || m.getName().startsWith(grad + "_"))
        .map(Launchers::signature).sorted().collect(Collectors.toList());
  }

  static String signature(String name, Class<?>[] types) {
    return name + Stream.of(types).map(Class::getSimpleName).collect(Collectors.joining(", ", "(", ")"));
  }

  private static String signature(Method m) {
    return signature(m.getName(), m.getParameterTypes());
  }
}
