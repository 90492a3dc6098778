package dev.kiln.processor.codegen.cpu;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import dev.kiln.processor.ir.Poly;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Java that evaluates a size polynomial as a {@code long}, saturating instead of overflowing. */
final class PolyCode {
  static final ClassName CHECKS = ClassName.get("dev.kiln.runtime", "Checks");

  private PolyCode() {}

  static CodeBlock of(Poly p) {
    if (p.isZero()) {
      return CodeBlock.of("0L");
    }
    CodeBlock sum = null;
    for (Map.Entry<List<String>, Long> t : p.terms().entrySet()) {
      List<CodeBlock> factors = new ArrayList<>();
      if (t.getValue() != 1 || t.getKey().isEmpty()) {
        factors.add(CodeBlock.of("$LL", t.getValue()));
      }
      for (String s : t.getKey()) {
        factors.add(CodeBlock.of("$N", s));
      }
      CodeBlock term = factors.get(0);
      for (int i = 1; i < factors.size(); i++) {
        term = CodeBlock.of("$T.mul($L, $L)", CHECKS, term, factors.get(i));
      }
      if (factors.size() == 1 && !t.getKey().isEmpty()) {
        term = CodeBlock.of("(long) $L", term);
      }
      sum = sum == null ? term : CodeBlock.of("$T.add($L, $L)", CHECKS, sum, term);
    }
    return sum;
  }
}
