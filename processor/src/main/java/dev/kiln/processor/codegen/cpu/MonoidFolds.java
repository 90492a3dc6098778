package dev.kiln.processor.codegen.cpu;

import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.TypeName;
import dev.kiln.processor.codegen.BodyEmitter;
import dev.kiln.processor.codegen.Names;
import java.util.ArrayList;
import java.util.List;

/**
 * The CPU kernel's fold of a {@code @Reduce} array of records whose chunks kept private partial
 * results: the chunks' copies combined by the record's method in the fixed pairwise tree of {@code
 * dev.kiln.runtime.cpu.Partials} (chunk 0 with 1, 2 with 3, ...; then the pairs), then the total
 * combined into the output's own value ({@code out[e] = out[e].m(total[e])}, as the plain loop
 * starts from the array's content).
 */
final class MonoidFolds {
  private MonoidFolds() {}

  /** The fold; {@code partials} names each component's {@code T[][]} of copies, {@code chunks} their count. */
  static CodeBlock tree(ReductionPlan.Group g, List<String> partials, String chunks, Names names) {
    String stride = names.fresh("stride");
    String c = names.fresh("c");
    List<CodeBlock> into = new ArrayList<>();
    List<CodeBlock> from = new ArrayList<>();
    List<CodeBlock> out = new ArrayList<>();
    List<CodeBlock> total = new ArrayList<>();
    for (int i = 0; i < partials.size(); i++) {
      into.add(CodeBlock.of("$N[$N]", partials.get(i), c));
      from.add(CodeBlock.of("$N[$N + $N]", partials.get(i), c, stride));
      out.add(CodeBlock.of("$N", g.arrays().get(i).name()));
      total.add(CodeBlock.of("$N[0]", partials.get(i)));
    }
    return CodeBlock.builder()
        .beginControlFlow("for (int $N = 1; $N < $N; $N *= 2)", stride, stride, chunks, stride)
        .beginControlFlow("for (int $N = 0; $N + $N < $N; $N += 2 * $N)", c, c, stride, chunks, c, stride)
        .add(elementwise(g, into, from, names))
        .endControlFlow()
        .endControlFlow()
        .add(elementwise(g, out, total, names))
        .build();
  }

  /** {@code a[e] = a[e].m(b[e])} for every element {@code e}, over the component arrays {@code a} and {@code b}. */
  private static CodeBlock elementwise(ReductionPlan.Group g, List<CodeBlock> a, List<CodeBlock> b, Names names) {
    CodeBlock.Builder code = CodeBlock.builder();
    List<String> as = new ArrayList<>();
    List<String> bs = new ArrayList<>();
    for (int i = 0; i < a.size(); i++) {
      TypeName array = JavaTypes.arrayOf(g.arrays().get(i).elementType());
      String x = names.fresh(g.arrays().get(i).name() + "Into");
      String y = names.fresh(g.arrays().get(i).name() + "From");
      code.addStatement("final $T $N = $L", array, x, a.get(i));
      code.addStatement("final $T $N = $L", array, y, b.get(i));
      as.add(x);
      bs.add(y);
    }
    String e = names.fresh("e");
    List<CodeBlock> into = new ArrayList<>();
    List<CodeBlock> from = new ArrayList<>();
    for (int i = 0; i < a.size(); i++) {
      into.add(CodeBlock.of("$N[$N]", as.get(i), e));
      from.add(CodeBlock.of("$N[$N]", bs.get(i), e));
    }
    return code.beginControlFlow("for (int $N = 0; $N < $N.length; $N++)", e, e, as.get(0), e)
        .add(BodyEmitter.combineInto(JavaSyntax.INSTANCE, names, g.monoid(), into, from))
        .endControlFlow()
        .build();
  }
}
