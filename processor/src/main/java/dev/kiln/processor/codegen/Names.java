package dev.kiln.processor.codegen;

import dev.kiln.processor.ir.OperatorIr;
import java.util.HashSet;
import java.util.Set;
import javax.lang.model.SourceVersion;

/** Hands out identifiers unique within one generated function. */
public final class Names {
  private final Set<String> used = new HashSet<>();

  public Names(Iterable<String> reserved) {
    reserved.forEach(used::add);
  }

  /** Names for a function that takes {@code op}'s parameters: theirs and {@code more} are taken. */
  public static Names forParams(OperatorIr op, String... more) {
    Names names = new Names(java.util.List.of(more));
    op.params().forEach(p -> names.used.add(p.name()));
    return names;
  }

  /** Reserves {@code name} exactly; it must be free. */
  public String exact(String name) {
    if (!used.add(name)) {
      throw new IllegalStateException("name already used: " + name);
    }
    return name;
  }

  /** {@code base}, or {@code base2}, {@code base3}, ... whichever is free first. */
  public String fresh(String base) {
    String b = SourceVersion.isIdentifier(base) && !SourceVersion.isKeyword(base) ? base : "t";
    String name = b;
    for (int n = 2; !used.add(name); n++) {
      name = b + n;
    }
    return name;
  }
}
