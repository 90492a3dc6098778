package dev.kiln.spark;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The generated {@code float[]} (CPU) launcher of an operator, found by name in {@code <Class>Kernels}. */
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

  /** Calls the launcher; its own exceptions (a misused argument) come out as they are. */
  static void call(ShardPlan plan, Object[] args) {
    try {
      of(plan).invoke(null, args);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(e.getCause());
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }
}
