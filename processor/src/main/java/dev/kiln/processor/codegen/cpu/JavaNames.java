package dev.kiln.processor.codegen.cpu;

import java.util.HashSet;
import java.util.Set;
import javax.lang.model.SourceVersion;

/** Hands out Java identifiers unique within one generated method. */
final class JavaNames {
  private final Set<String> used = new HashSet<>();

  JavaNames(Iterable<String> reserved) {
    reserved.forEach(used::add);
  }

  /** Reserves {@code name} exactly; it must be free. */
  String exact(String name) {
    if (!used.add(name)) {
      throw new IllegalStateException("name already used: " + name);
    }
    return name;
  }

  /** {@code base}, or {@code base2}, {@code base3}, ... whichever is free first. */
  String fresh(String base) {
    String b = SourceVersion.isIdentifier(base) && !SourceVersion.isKeyword(base) ? base : "t";
    String name = b;
    for (int n = 2; !used.add(name); n++) {
      name = b + n;
    }
    return name;
  }
}
