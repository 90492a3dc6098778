package dev.kiln.processor.javac;

import com.sun.source.util.Trees;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import javax.annotation.processing.ProcessingEnvironment;

/**
 * Gets javac's {@link Trees} for a processing environment. Build tools and IDEs hand processors
 * wrappers of javac's environment (Gradle's incremental wrapper, IntelliJ's proxy); {@code
 * Trees.instance} rejects those, so this unwraps them first, the way Spring Boot's and ButterKnife's
 * processors do.
 */
public final class TreesAdapter {
  private static final String[] DELEGATE_FIELDS = {"delegate", "processingEnv", "processingEnvironment", "env"};

  private TreesAdapter() {}

  /**
   * The Trees of {@code env} or of the javac environment it wraps.
   *
   * @throws IllegalStateException when neither {@code env} nor what it wraps is javac's; its
   *     message is the class of {@code env}
   */
  public static Trees trees(ProcessingEnvironment env) {
    ProcessingEnvironment current = env;
    for (int depth = 0; depth < 8 && current != null; depth++) {
      try {
        return Trees.instance(current);
      } catch (IllegalArgumentException notJavac) {
        current = unwrap(current);
      }
    }
    throw new IllegalStateException(env.getClass().getName());
  }

  private static ProcessingEnvironment unwrap(ProcessingEnvironment env) {
    if (Proxy.isProxyClass(env.getClass())) {
      InvocationHandler handler = Proxy.getInvocationHandler(env);
      ProcessingEnvironment inner = findDelegate(handler);
      if (inner != null) {
        return inner;
      }
    }
    return findDelegate(env);
  }

  private static ProcessingEnvironment findDelegate(Object holder) {
    for (Class<?> c = holder.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
      for (String name : DELEGATE_FIELDS) {
        try {
          Field f = c.getDeclaredField(name);
          f.setAccessible(true);
          Object value = f.get(holder);
          if (value instanceof ProcessingEnvironment && value != holder) {
            return (ProcessingEnvironment) value;
          }
        } catch (ReflectiveOperationException | RuntimeException ignored) {
          // not this field; try the next
        }
      }
    }
    return null;
  }
}
