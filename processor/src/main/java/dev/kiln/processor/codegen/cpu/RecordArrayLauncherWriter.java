package dev.kiln.processor.codegen.cpu;

import com.palantir.javapoet.ArrayTypeName;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterSpec;
import com.palantir.javapoet.TypeName;
import dev.kiln.processor.codegen.Names;
import dev.kiln.processor.ir.ArrayRole;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.Modifier;

/**
 * The launcher of a grid operator or composite with array parameters of records, taking them as the source does
 * ({@code MeanVar[] s}): the components of each input and {@code @Reduce} array of records are
 * copied into one array of numbers a component, the CPU kernel (which takes those arrays, {@code
 * s_n, s_mean, s_m2}) runs, and each element of an {@code @Out} or {@code @Reduce} array of records
 * becomes a new record of the results. Nothing is stored back when the kernel throws, so a failed
 * call leaves the records as they were.
 */
final class RecordArrayLauncherWriter {
  private RecordArrayLauncherWriter() {}

  /**
   * Whether {@code op} takes arrays of records, each whole: all its components, in order, of one
   * role (a kernel Kiln derived from such an operator may take only some components: it gets no
   * record launcher).
   */
  static boolean applies(OperatorIr op) {
    Map<String, List<Param.Array>> groups = groups(op);
    for (List<Param.Array> g : groups.values()) {
      for (int i = 0; i < g.size(); i++) {
        if (g.get(i).record().index() != i || g.get(i).record().count() != g.size() || g.get(i).role() != g.get(0).role()) {
          return false;
        }
      }
    }
    return !groups.isEmpty();
  }

  /** The component arrays of each array of records {@code op} takes, by the source's parameter name. */
  private static Map<String, List<Param.Array>> groups(OperatorIr op) {
    Map<String, List<Param.Array>> groups = new LinkedHashMap<>();
    for (Param p : op.params()) {
      if (p instanceof Param.Array a && a.record() != null) {
        groups.computeIfAbsent(a.record().param(), k -> new ArrayList<>()).add(a);
      }
    }
    return groups;
  }

  static MethodSpec write(OperatorIr op, DocLinks owner) {
    Map<String, List<Param.Array>> groups = groups(op);
    MethodSpec.Builder m = MethodSpec.methodBuilder(op.name())
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
        .addJavadoc("CPU kernel of $L, taking its arrays of records as the source does: their components are copied\n"
            + "into arrays of numbers, the kernel runs over those, and each element of an output becomes a new record\n"
            + "of the results. Nothing is stored back if the kernel throws.\n", owner.of(op.name()));
    List<String> reserved = new ArrayList<>();
    op.params().forEach(p -> reserved.add(p.name()));
    reserved.addAll(groups.keySet());
    Names names = new Names(reserved);
    List<CodeBlock> args = new ArrayList<>();
    CodeBlock.Builder unpack = CodeBlock.builder();
    CodeBlock.Builder pack = CodeBlock.builder();
    List<String> declared = new ArrayList<>();
    for (Param.Scalar d : op.dims()) { // the sizes first, as the kernel checks them, before any length
      unpack.addStatement("$T.dim($S, $S, $N)", PolyCode.CHECKS, op.name(), d.name(), d.name());
    }
    for (Param p : op.params()) {
      args.add(CodeBlock.of("$N", p.name()));
      if (!(p instanceof Param.Array a) || a.record() == null) {
        m.addParameter(ParameterSpec.builder(JavaTypes.of(p), p.name()).build());
        continue;
      }
      String param = a.record().param();
      if (declared.contains(param)) {
        continue;
      }
      declared.add(param);
      List<Param.Array> components = groups.get(param);
      List<String> simpleNames = a.record().recordNames();
      ClassName record = ClassName.get(a.record().recordPackage(), simpleNames.get(0),
          simpleNames.subList(1, simpleNames.size()).toArray(new String[0]));
      m.addParameter(ParameterSpec.builder(ArrayTypeName.of(record), param).build());
      unpack.addStatement("$T.notNull($S, $S, $N)", PolyCode.CHECKS, op.name(), param, param);
      unpack.add(ArgumentChecks.length(op, a, param));
      for (String other : declared.subList(0, declared.size() - 1)) {
        boolean eitherWritten = a.role() != ArrayRole.IN || groups.get(other).get(0).role() != ArrayRole.IN;
        if (eitherWritten) {
          unpack.addStatement("$T.distinct($S, $S, $N, $S, $N)", PolyCode.CHECKS, op.name(), param, param, other, other);
        }
      }
      String e = names.fresh("e");
      String r = names.fresh("r");
      CodeBlock.Builder read = CodeBlock.builder();
      List<CodeBlock> results = new ArrayList<>();
      for (Param.Array c : components) {
        TypeName array = JavaTypes.arrayOf(c.elementType());
        unpack.addStatement("final $T $N = new $T[$N.length]", array, c.name(), JavaTypes.of(c.elementType()), param);
        read.addStatement("$N[$N] = $N.$N()", c.name(), e, r, c.record().component());
        results.add(CodeBlock.of("$N[$N]", c.name(), e));
      }
      if (a.role() != ArrayRole.OUT) { // an output's elements are only written
        unpack.beginControlFlow("for (int $N = 0; $N < $N.length; $N++)", e, e, param, e)
            .addStatement("final $T $N = $N[$N]", record, r, param, e)
            .beginControlFlow("if ($N == null)", r)
            .addStatement("throw new $T($S + $N + $S)", IllegalArgumentException.class,
                op.name() + ": argument '" + param + "' has null at index ", e, " (every element must be a "
                    + record.simpleName() + (a.role() == ArrayRole.REDUCE ? ", the identity where nothing is reduced yet)" : ")"))
            .endControlFlow()
            .add(read.build())
            .endControlFlow();
      }
      if (a.role() != ArrayRole.IN) {
        pack.beginControlFlow("for (int $N = 0; $N < $N.length; $N++)", e, e, param, e)
            .addStatement("$N[$N] = new $T($L)", param, e, record, CodeBlock.join(results, ", "))
            .endControlFlow();
      }
    }
    return m.addCode(unpack.build())
        .addStatement("$N($L)", op.name(), CodeBlock.join(args, ", "))
        .addCode(pack.build())
        .build();
  }
}
