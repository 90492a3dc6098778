package dev.kiln.processor.codegen.cpu;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import java.util.Set;

/**
 * How a generated method's javadoc names the operator it runs: a {@code {@link Owner#name}} where
 * the operator class declares a method of that name, else (a kernel of a fused composite, a derived
 * gradient, a training form) the name in code font with a link to the operator it was made from, so
 * that javadoc's reference check passes on the generated sources.
 */
final class DocLinks {
  private final ClassName owner;
  private final Set<String> declared;

  /** @param declared the names of the operator class's {@code @Operator} methods */
  DocLinks(ClassName owner, Set<String> declared) {
    this.owner = owner;
    this.declared = Set.copyOf(declared);
  }

  ClassName owner() {
    return owner;
  }

  /**
   * The operator a kernel Kiln made was made from: of the {@code declared} names, the longest that
   * {@code kernel} starts with ({@code softmaxGrad_k0} from {@code softmax}); null when none.
   */
  static String madeFrom(String kernel, Set<String> declared) {
    String from = null;
    for (String m : declared) {
      if (kernel.startsWith(m) && (from == null || m.length() > from.length())) {
        from = m;
      }
    }
    return from;
  }

  /** The javadoc text that names {@code name}. */
  CodeBlock of(String name) {
    if (declared.contains(name)) {
      return CodeBlock.of("{@link $T#$L}", owner, name);
    }
    String from = madeFrom(name, declared);
    return from == null
        ? CodeBlock.of("{@code $L.$L}", owner.simpleName(), name)
        : CodeBlock.of("{@code $L.$L} (made from {@link $T#$L})", owner.simpleName(), name, owner, from);
  }
}
