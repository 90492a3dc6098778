package dev.kiln.processor.autodiff;

import java.util.Set;

/** Names of what gradients add: the launcher {@code <op>Grad}, and {@code d<name>} per array. */
public final class GradientNames {
  private GradientNames() {}

  /** The gradient launcher of operator {@code op}. */
  public static String launcher(String op) {
    return op + "Grad";
  }

  /**
   * {@code d<name>}, with {@code _} appended until it is no Java keyword ({@code o} gives {@code do_})
   * and differs from every name in {@code taken}; added to it.
   */
  static String gradient(String name, Set<String> taken) {
    return unique("d" + name, taken);
  }

  /** {@code name}, with {@code _} appended until it is no Java keyword and not in {@code taken}; added to it. */
  static String unique(String name, Set<String> taken) {
    String n = name;
    while (javax.lang.model.SourceVersion.isKeyword(n) || !taken.add(n)) {
      n = n + "_";
    }
    return n;
  }
}
