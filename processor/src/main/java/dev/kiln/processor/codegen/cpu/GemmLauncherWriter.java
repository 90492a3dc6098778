package dev.kiln.processor.codegen.cpu;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterSpec;
import dev.kiln.processor.codegen.GemmCall;
import dev.kiln.processor.contraction.Contraction;
import dev.kiln.processor.ir.GridDim;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.Modifier;

/**
 * Writes the CPU launcher of a contraction: the operator's own argument checks, its matrix products
 * as calls of {@code dev.kiln.runtime.cpu.Gemm} (BLAS, or Kiln's blocked Java GEMM) into the
 * product buffer (the output itself when the contraction writes it directly), after the prologue
 * kernels that compute computed operands, then the epilogue kernel over the grid (or, when the
 * epilogue has products of its own, its launcher).
 */
final class GemmLauncherWriter {
  private GemmLauncherWriter() {}

  static MethodSpec write(Contraction c, DocLinks owner) {
    OperatorIr.Grid op = c.op();
    MethodSpec.Builder m = MethodSpec.methodBuilder(op.name())
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
        .addJavadoc("CPU kernel of $L: the same parameters and results; its loop of products runs as "
            + "$L (library GEMM)$L.\n", owner.of(op.name()), c.products().size() == 1 ? "one matrix product" : c.products().size() + " matrix products",
            c.epilogue() == null ? "" : ", the rest of each worker in one parallel pass over the grid");
    for (Param p : op.params()) {
      m.addParameter(ParameterSpec.builder(JavaTypes.of(p), p.name()).build());
    }
    m.addCode(ArgumentChecks.of(op));
    m.addCode(body(c));
    return m.build();
  }

  /**
   * The prologues, the products and the epilogue call, after the checks (also used by a kernel of a
   * composite). A prologue runs only when no grid extent is 0: with no worker the loop reads nothing.
   */
  static CodeBlock body(Contraction c) {
    OperatorIr.Grid op = c.op();
    CodeBlock.Builder code = CodeBlock.builder();
    String buffer = c.product().name();
    String pool = "products$";
    boolean pooled = c.direct() == null || !c.prologues().isEmpty();
    if (pooled) {
      // buffers from the pool of temporaries, not new arrays each call (no allocation, no zeroing:
      // the first product overwrites every element of its buffer, beta 0, and each prologue every
      // element of its operand), given back once the epilogue returned
      code.beginControlFlow("try ($T $N = $T.open())", CompositeWriter.TEMPORARIES, pool, CompositeWriter.TEMPORARIES);
    }
    if (c.direct() != null) {
      code.addStatement("final $T $N = $N", JavaTypes.arrayOf(c.elementType()), buffer, c.direct().name());
    } else {
      code.addStatement("final $T $N = $N.$L($L, false)", JavaTypes.arrayOf(c.elementType()), buffer, pool,
          CompositeWriter.take(c.elementType()), GemmCall.size(op, "the length of the matrix product", c.product().shape().length()));
    }
    for (OperatorIr.Grid prologue : c.prologues()) {
      Param.Array operand = Contraction.operand(prologue);
      code.addStatement("final $T $N = $N.$L($L, false)", JavaTypes.arrayOf(operand.elementType()), operand.name(), pool,
          CompositeWriter.take(operand.elementType()),
          GemmCall.size(op, "the length of the operand '" + operand.name() + "'", operand.shape().length()));
    }
    if (!c.prologues().isEmpty()) {
      code.beginControlFlow("if ($L)", noEmptyExtent(op));
      for (OperatorIr.Grid prologue : c.prologues()) {
        code.addStatement("$N($L)", prologue.name(), arguments(prologue));
      }
      code.endControlFlow();
    }
    boolean first = true;
    for (Contraction.Product p : c.products()) {
      code.addStatement(GemmCall.of(op, c.elementType(), p, buffer, first, null));
      first = false;
    }
    if (c.epilogue() != null) {
      code.addStatement("$N($L)", c.epilogue().name(), arguments(c.epilogue()));
    }
    if (pooled) {
      code.addStatement("$N.finished()", pool);
      code.endControlFlow();
    }
    return code.build();
  }

  /** {@code B > 0 && T > 0 && ...} over the operator's grid extents. */
  static CodeBlock noEmptyExtent(OperatorIr.Grid op) {
    List<CodeBlock> terms = new ArrayList<>();
    for (GridDim g : op.grid()) {
      terms.add(CodeBlock.of("$L > 0", g.extentText()));
    }
    return CodeBlock.join(terms, " && ");
  }

  private static CodeBlock arguments(OperatorIr.Grid kernel) {
    List<CodeBlock> args = new ArrayList<>();
    for (Param p : kernel.params()) {
      args.add(CodeBlock.of("$N", p.name()));
    }
    return CodeBlock.join(args, ", ");
  }

}
