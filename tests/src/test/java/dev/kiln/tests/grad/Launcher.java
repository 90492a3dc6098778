package dev.kiln.tests.grad;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/** A static method called by reflection; what it throws is rethrown as itself. */
@FunctionalInterface
interface Launcher {
  Object call(Object... args) throws Exception;

  static Launcher of(Method m) {
    return args -> {
      try {
        return m.invoke(null, args);
      } catch (InvocationTargetException e) {
        if (e.getCause() instanceof Exception cause) {
          throw cause;
        }
        if (e.getCause() instanceof Error error) {
          throw error;
        }
        throw e;
      }
    };
  }
}
