package dev.kiln.spark;

import dev.kiln.runtime.ByteTensor;
import dev.kiln.runtime.Device;
import dev.kiln.runtime.DoubleTensor;
import dev.kiln.runtime.FloatTensor;
import dev.kiln.runtime.IntTensor;
import dev.kiln.runtime.Kiln;
import dev.kiln.runtime.LongTensor;
import dev.kiln.runtime.ShortTensor;
import dev.kiln.runtime.Tensor;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The generated launcher of an operator, found by name in {@code <Class>Kernels}: the {@code float[]}
 * (CPU) one, or on an executor whose {@link Kiln#device()} is CUDA the one taking tensors, which
 * runs the operator's CUDA kernels.
 */
final class Launcher {
  private static final Map<String, Method> CACHE = new ConcurrentHashMap<>();

  private Launcher() {}

  /** The launcher of {@code plan}'s operator taking plain arrays and scalars, one argument per parameter of the plan. */
  static Method of(ShardPlan plan) {
    return CACHE.computeIfAbsent(plan.owner() + "#" + plan.operator() + "/" + plan.params().size(), k -> find(plan));
  }

  private static Method find(ShardPlan plan) {
    String kernels = ShardPlan.baseName(classOf(plan.owner())) + "Kernels";
    Class<?> type = classOf(kernels);
    for (Method m : type.getMethods()) {
      if (m.getName().equals(plan.operator()) && Modifier.isStatic(m.getModifiers())
          && m.getParameterCount() == plan.params().size() && plainTypes(m)) {
        return m;
      }
    }
    throw new IllegalStateException(kernels + " has no launcher " + plan.operator() + " taking " + plan.params().size()
        + " arrays and scalars; is it compiled by the same Kiln version as its shard plan?");
  }

  private static boolean plainTypes(Method m) {
    for (Class<?> p : m.getParameterTypes()) {
      if (!p.isPrimitive() && !(p.isArray() && p.getComponentType().isPrimitive())) {
        return false;
      }
    }
    return true;
  }

  private static Class<?> classOf(String name) {
    try {
      ClassLoader loader = Thread.currentThread().getContextClassLoader();
      return Class.forName(name, true, loader != null ? loader : Launcher.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("class " + name + " is not on this JVM's class path (ship the operators' jar with the job)", e);
    }
  }

  /**
   * The launcher of {@code plan}'s operator taking {@link Tensor}s in place of arrays: the one that
   * runs on {@link Kiln#device()}.
   */
  static Method onDevice(ShardPlan plan) {
    return CACHE.computeIfAbsent(plan.owner() + "#" + plan.operator() + "/" + plan.params().size() + "/tensors", k -> {
      Method plain = of(plan);
      Class<?>[] types = plain.getParameterTypes().clone();
      for (int i = 0; i < types.length; i++) {
        if (types[i].isArray()) {
          types[i] = tensorClass(types[i]);
        }
      }
      try {
        return plain.getDeclaringClass().getMethod(plain.getName(), types);
      } catch (NoSuchMethodException e) {
        throw new IllegalStateException(plain.getDeclaringClass().getSimpleName() + " has no tensor launcher "
            + plan.operator() + "; is it compiled by the same Kiln version as its shard plan?", e);
      }
    });
  }

  private static Class<?> tensorClass(Class<?> array) {
    Class<?> c = array.getComponentType();
    return c == float.class ? FloatTensor.class : c == double.class ? DoubleTensor.class : c == int.class ? IntTensor.class
        : c == long.class ? LongTensor.class : c == short.class ? ShortTensor.class : ByteTensor.class;
  }

  private static Tensor<?, ?> tensor(Object array) {
    if (array instanceof float[] a) return FloatTensor.of(a);
    if (array instanceof double[] a) return DoubleTensor.of(a);
    if (array instanceof int[] a) return IntTensor.of(a);
    if (array instanceof long[] a) return LongTensor.of(a);
    if (array instanceof short[] a) return ShortTensor.of(a);
    return ByteTensor.of((byte[]) array);
  }

  /**
   * Calls the launcher where {@link Kiln#device()} says: the {@code float[]} launcher on the CPU, or
   * on CUDA the tensor launcher on the arrays' copies, the written arrays copied back; the
   * launcher's own exceptions (a misused argument) come out as they are.
   */
  static void call(ShardPlan plan, Object[] args) {
    if (Kiln.device() == Device.CUDA) {
      callOnDevice(plan, args);
      return;
    }
    invoke(of(plan), args);
  }

  /** Runs a launcher; its own exceptions (a misused argument) come out as they are. */
  private static void invoke(Method launcher, Object[] args) {
    try {
      launcher.invoke(null, args);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(e.getCause());
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void callOnDevice(ShardPlan plan, Object[] args) {
    Object[] call = args.clone();
    List<Tensor<?, ?>> tensors = new ArrayList<>();
    try {
      for (int i = 0; i < call.length; i++) {
        if (call[i] != null && call[i].getClass().isArray()) {
          Tensor<?, ?> t = tensor(call[i]);
          tensors.add(t);
          call[i] = t;
        }
      }
      invoke(onDevice(plan), call);
      for (int i = 0; i < call.length; i++) {
        boolean written = plan.params().get(i).written() || plan.params().get(i).role() == ShardPlan.Role.SCALAR;
        if (call[i] instanceof Tensor<?, ?> t && written) {
          Object host = t.hostArray();
          System.arraycopy(host, 0, args[i], 0, java.lang.reflect.Array.getLength(host));
        }
      }
    } finally {
      tensors.forEach(Tensor::close);
    }
  }
}
