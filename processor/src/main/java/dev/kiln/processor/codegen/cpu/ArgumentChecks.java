package dev.kiln.processor.codegen.cpu;

import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.TypeName;
import dev.kiln.processor.check.InPlace;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import java.util.List;
import javax.lang.model.element.Modifier;

/**
 * The checks a grid launcher runs before any work: no negative {@code @Dim}, no null array, every
 * array exactly as long as its shape. Failures throw {@code IllegalArgumentException}s that name
 * the operator and the argument; the message's size text is built only when a check fails.
 */
public final class ArgumentChecks {
  private ArgumentChecks() {}

  /** The name of the helper that formats the bound sizes of {@code op} for messages. */
  public static String dimsHelperName(OperatorIr op) {
    return op.name() + "$dims";
  }

  /** A private helper {@code String op$dims(int B, int H)} returning {@code "B=2, H=3"}. */
  static MethodSpec dimsHelper(OperatorIr op) {
    MethodSpec.Builder m = MethodSpec.methodBuilder(dimsHelperName(op))
        .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
        .returns(String.class);
    List<Param.Scalar> dims = op.dims();
    CodeBlock.Builder text = CodeBlock.builder();
    if (dims.isEmpty()) {
      text.add("$S", "no @Dim sizes");
    }
    for (int i = 0; i < dims.size(); i++) {
      m.addParameter(TypeName.INT, dims.get(i).name());
      text.add(i == 0 ? "$S + $N" : " + $S + $N", (i == 0 ? "" : ", ") + dims.get(i).name() + "=", dims.get(i).name());
    }
    return m.addStatement("return $L", text.build()).build();
  }

  static CodeBlock of(OperatorIr op) {
    return of(op, false);
  }

  /** The checks, for host arrays ({@code x.length}) or device arrays ({@code x.length()}). */
  public static CodeBlock of(OperatorIr op, boolean device) {
    CodeBlock.Builder code = CodeBlock.builder();
    String name = op.name();
    for (Param.Scalar d : op.dims()) {
      code.addStatement("$T.dim($S, $S, $N)", PolyCode.CHECKS, name, d.name(), d.name());
    }
    List<dev.kiln.processor.ir.GridDim> grid = op instanceof OperatorIr.Grid g ? g.grid() : List.of();
    for (dev.kiln.processor.ir.GridDim g : grid) {
      if (g.derived()) { // a @Parallel bound made of @Dims (4 * H): the kernels compute it in int
        code.addStatement("$T.size($S, $S, $L)", PolyCode.CHECKS, name, "the @Parallel bound " + g.bound(), PolyCode.of(g.size()));
      }
    }
    for (Param.Array a : op.arrays()) {
      if (OperatorIr.isScratch(a)) {
        continue; // not a parameter: the kernel allocates it
      }
      code.addStatement("$T.notNull($S, $S, $N)", PolyCode.CHECKS, name, a.name(), a.name());
      code.add(length(op, a, a.name(), device));
    }
    code.add(aliasing(op));
    return code.build();
  }

  /** The check that the host array {@code argument} is as long as {@code a}'s shape (the array of records whose component {@code a} is). */
  static CodeBlock length(OperatorIr op, Param.Array a, String argument) {
    return length(op, a, argument, false);
  }

  private static CodeBlock length(OperatorIr op, Param.Array a, String argument, boolean device) {
    CodeBlock.Builder dimsArgs = CodeBlock.builder();
    for (int i = 0; i < op.dims().size(); i++) {
      dimsArgs.add(i == 0 ? "$N" : ", $N", op.dims().get(i).name());
    }
    CodeBlock.Builder extents = CodeBlock.builder();
    List<Poly> ex = a.shape().extents();
    for (int i = 0; i < ex.size(); i++) {
      extents.add(i == 0 ? "$L" : ", $L", PolyCode.of(ex.get(i)));
    }
    String lengthVar = argument + "$length";
    CodeBlock actual = device ? CodeBlock.of("$N.length()", argument) : CodeBlock.of("$N.length", argument);
    return CodeBlock.builder()
        .addStatement("final long $N = $T.shapeLength($L)", lengthVar, PolyCode.CHECKS, extents.build())
        .beginControlFlow("if ($L != $N)", actual, lengthVar)
        .addStatement("throw $T.badLength($S, $S, $S, $N, $L, $N($L))", PolyCode.CHECKS, op.name(), argument,
            a.shape().text(), lengthVar, actual, dimsHelperName(op), dimsArgs.build())
        .endControlFlow()
        .build();
  }

  /**
   * {@code Checks.distinct} for every output and every other array argument, unless the operator is
   * proved safe in place for the pair ({@link InPlace}); each pair of outputs once.
   */
  static CodeBlock aliasing(OperatorIr op) {
    CodeBlock.Builder code = CodeBlock.builder();
    List<Param.Array> arrays = op.arrays().stream().filter(a -> !OperatorIr.isScratch(a)).toList();
    for (int i = 0; i < arrays.size(); i++) {
      Param.Array out = arrays.get(i);
      if (out.role() == dev.kiln.processor.ir.ArrayRole.IN) {
        continue;
      }
      for (int j = 0; j < arrays.size(); j++) {
        Param.Array other = arrays.get(j);
        boolean otherIsOutput = other.role() != dev.kiln.processor.ir.ArrayRole.IN;
        if (j == i || (otherIsOutput && j < i) || InPlace.safe(op, out, other)) {
          continue;
        }
        code.addStatement("$T.distinct($S, $S, $N, $S, $N)", PolyCode.CHECKS, op.name(), out.name(), out.name(),
            other.name(), other.name());
      }
    }
    return code.build();
  }
}
