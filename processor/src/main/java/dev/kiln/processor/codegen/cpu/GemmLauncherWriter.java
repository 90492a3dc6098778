package dev.kiln.processor.codegen.cpu;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterSpec;
import dev.kiln.processor.codegen.GemmCall;
import dev.kiln.processor.contraction.Contraction;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.Modifier;

/**
 * Writes the CPU launcher of a contraction: the operator's own argument checks, its matrix products
 * as calls of {@code dev.kiln.runtime.cpu.Gemm} (BLAS, or Kiln's blocked Java GEMM) into the
 * product buffer (the output itself when the contraction writes it directly), then the epilogue
 * kernel over the grid.
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

  /** The products and the epilogue call, after the checks (also used by a kernel of a composite). */
  static CodeBlock body(Contraction c) {
    OperatorIr.Grid op = c.op();
    CodeBlock.Builder code = CodeBlock.builder();
    String buffer = c.product().name();
    String pool = "products$";
    if (c.direct() != null) {
      code.addStatement("final $T $N = $N", JavaTypes.arrayOf(c.elementType()), buffer, c.direct().name());
    } else {
      // the buffer from the pool of temporaries, not a new array each call (no allocation, no zeroing:
      // the first product overwrites every element, beta 0), given back once the epilogue returned
      code.beginControlFlow("try ($T $N = $T.open())", CompositeWriter.TEMPORARIES, pool, CompositeWriter.TEMPORARIES);
      code.addStatement("final $T $N = $N.$L($L, false)", JavaTypes.arrayOf(c.elementType()), buffer, pool,
          CompositeWriter.take(c.elementType()), GemmCall.size(op, "the length of the matrix product", c.product().shape().length()));
    }
    boolean first = true;
    for (Contraction.Product p : c.products()) {
      code.addStatement(GemmCall.of(op, c.elementType(), p, buffer, first, null));
      first = false;
    }
    if (c.epilogue() != null) {
      List<CodeBlock> args = new ArrayList<>();
      for (Param p : c.epilogue().params()) {
        args.add(CodeBlock.of("$N", p.name()));
      }
      code.addStatement("$N($L)", c.epilogue().name(), CodeBlock.join(args, ", "));
    }
    if (c.direct() == null) {
      code.addStatement("$N.finished()", pool);
      code.endControlFlow();
    }
    return code.build();
  }

}
