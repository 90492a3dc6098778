package dev.kiln.processor.codegen.cpu;

import com.palantir.javapoet.ArrayTypeName;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterSpec;
import com.palantir.javapoet.TypeName;
import dev.kiln.processor.codegen.Names;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.Modifier;

/**
 * The launcher of a grid operator with {@code @Reduce} arrays of records, taking them as the
 * source does ({@code MeanVar[] s}): each record array's components are copied into one array of
 * numbers per component, the CPU kernel (which takes those arrays, {@code s_n, s_mean, s_m2}) runs,
 * and each element is replaced by a new record of the results. Nothing is stored back when the
 * kernel throws, so a failed call leaves the records as they were.
 */
final class RecordArrayLauncherWriter {
  private RecordArrayLauncherWriter() {}

  static MethodSpec write(OperatorIr.Grid op, List<ReductionPlan.Group> groups, DocLinks owner) {
    Map<Param.Array, ReductionPlan.Group> groupOf = new HashMap<>();
    groups.forEach(g -> g.arrays().forEach(a -> groupOf.put(a, g)));
    MethodSpec.Builder m = MethodSpec.methodBuilder(op.name())
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
        .addJavadoc("CPU kernel of $L, taking its arrays of records as the source does: their components are copied\n"
            + "into arrays of numbers, the kernel runs over those, and each element becomes a new record of the\n"
            + "results. Nothing is stored back if the kernel throws.\n", owner.of(op.name()));
    List<String> reserved = new ArrayList<>();
    op.params().forEach(p -> reserved.add(p.name()));
    groups.forEach(g -> reserved.add(g.param()));
    Names names = new Names(reserved);
    List<CodeBlock> args = new ArrayList<>();
    CodeBlock.Builder unpack = CodeBlock.builder();
    CodeBlock.Builder pack = CodeBlock.builder();
    List<ReductionPlan.Group> declared = new ArrayList<>();
    for (Param p : op.params()) {
      ReductionPlan.Group g = p instanceof Param.Array a ? groupOf.get(a) : null;
      if (g == null) {
        m.addParameter(ParameterSpec.builder(JavaTypes.of(p), p.name()).build());
        args.add(CodeBlock.of("$N", p.name()));
        continue;
      }
      args.add(CodeBlock.of("$N", p.name()));
      if (declared.contains(g)) {
        continue;
      }
      declared.add(g);
      ClassName record = ClassName.bestGuess(g.monoid().recordClass());
      m.addParameter(ParameterSpec.builder(ArrayTypeName.of(record), g.param()).build());
      unpack.addStatement("$T.notNull($S, $S, $N)", PolyCode.CHECKS, op.name(), g.param(), g.param());
      unpack.add(ArgumentChecks.length(op, g.arrays().get(0), g.param()));
      for (ReductionPlan.Group other : declared.subList(0, declared.size() - 1)) {
        unpack.addStatement("$T.distinct($S, $S, $N, $S, $N)", PolyCode.CHECKS, op.name(), g.param(), g.param(),
            other.param(), other.param());
      }
      String e = names.fresh("e");
      String r = names.fresh("r");
      CodeBlock.Builder read = CodeBlock.builder();
      List<CodeBlock> results = new ArrayList<>();
      for (int i = 0; i < g.arrays().size(); i++) {
        Param.Array a = g.arrays().get(i);
        TypeName array = JavaTypes.arrayOf(a.elementType());
        unpack.addStatement("final $T $N = new $T[$N.length]", array, a.name(), JavaTypes.of(a.elementType()), g.param());
        read.addStatement("$N[$N] = $N.$N()", a.name(), e, r, g.monoid().components().get(i));
        results.add(CodeBlock.of("$N[$N]", a.name(), e));
      }
      unpack.beginControlFlow("for (int $N = 0; $N < $N.length; $N++)", e, e, g.param(), e)
          .addStatement("final $T $N = $N[$N]", record, r, g.param(), e)
          .beginControlFlow("if ($N == null)", r)
          .addStatement("throw new $T($S + $N + $S)", IllegalArgumentException.class,
              op.name() + ": argument '" + g.param() + "' has null at index ", e, " (every element must be a "
                  + g.monoid().record() + ", the identity where nothing is reduced yet)")
          .endControlFlow()
          .add(read.build())
          .endControlFlow();
      pack.beginControlFlow("for (int $N = 0; $N < $N.length; $N++)", e, e, g.param(), e)
          .addStatement("$N[$N] = new $T($L)", g.param(), e, record, CodeBlock.join(results, ", "))
          .endControlFlow();
    }
    return m.addCode(unpack.build())
        .addStatement("$N($L)", op.name(), CodeBlock.join(args, ", "))
        .addCode(pack.build())
        .build();
  }
}
