package dev.kiln.processor.codegen.cpu;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import dev.kiln.processor.codegen.GemmCall;
import dev.kiln.processor.codegen.Names;
import dev.kiln.processor.codegen.cuda.KernelInfo;
import dev.kiln.processor.contraction.Contraction;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.Modifier;

/**
 * Writes the device launcher of a contraction: the operator's argument checks, its products as
 * cuBLAS calls ({@code dev.kiln.runtime.cuda.CudaBlas}) on the caller's stream, after the prologue
 * kernels that compute computed operands (into the stream's temporaries), then the epilogue
 * kernel on the same stream. The product buffer is the output itself when the contraction writes it
 * directly; otherwise it is allocated on the device and freed once the stream has finished.
 */
public final class DeviceGemmLauncherWriter {
  private DeviceGemmLauncherWriter() {}

  /**
   * @param epilogue the epilogue's kernel, or null when the contraction has none or the epilogue has
   *     products of its own ({@code epilogueLowered}: its own device launcher is called)
   * @param prologues the prologues' kernels, in the contraction's order
   */
  public static MethodSpec write(Contraction c, KernelInfo epilogue, boolean epilogueLowered, List<KernelInfo> prologues,
      DocLinks owner, ClassName kernels, String resourceBase) {
    OperatorIr.Grid op = c.op();
    List<String> locals = new ArrayList<>(List.of(c.product().name()));
    c.prologues().forEach(p -> locals.add(Contraction.operand(p).name()));
    Names names = Names.forParams(op, locals.toArray(new String[0]));
    String stream = names.fresh("stream");
    boolean allocates = c.direct() == null;
    MethodSpec.Builder m = MethodSpec.methodBuilder(op.name())
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
        .addJavadoc("CUDA launch of $L on {@code $L}: device arrays in place of arrays; its loop of products runs as"
            + " cuBLAS matrix products$L; $L.\n", owner.of(op.name()), stream,
            c.epilogue() == null ? "" : ", the rest of each worker in one kernel",
            allocates ? "asynchronous (the product buffer is one of the stream's temporaries)" : "asynchronous")
        .addParameter(DeviceLauncherWriter.STREAM, stream);
    for (Param p : op.params()) {
      m.addParameter(p instanceof Param.Array a ? DeviceLauncherWriter.deviceArray(a.elementType())
          : JavaTypes.of(((Param.Scalar) p).type()), p.name());
    }
    m.addStatement("$T.notNull($S, $S, $N)", DeviceLauncherWriter.CHECKS, op.name(), stream, stream);
    m.addCode(ArgumentChecks.of(op, true));
    CodeBlock.Builder work = CodeBlock.builder();
    for (int i = 0; i < c.prologues().size(); i++) {
      OperatorIr.Grid prologue = c.prologues().get(i);
      Param.Array operand = Contraction.operand(prologue);
      work.beginControlFlow("try ($T $N = $N.$L($L))", DeviceLauncherWriter.deviceArray(operand.elementType()),
          operand.name(), stream, DeviceCompositeWriter.temporary(operand.elementType()),
          GemmCall.size(op, "the length of the operand '" + operand.name() + "'", operand.shape().length()));
      work.beginControlFlow("if ($L)", GemmLauncherWriter.noEmptyExtent(op));
      work.add(DeviceLauncherWriter.launch(prologue, prologues.get(i), names, stream, kernels, resourceBase,
          arguments(prologue)));
      work.endControlFlow();
    }
    boolean first = true;
    for (Contraction.Product p : c.products()) {
      work.addStatement(GemmCall.of(op, c.elementType(), p, c.product().name(), first, stream));
      first = false;
    }
    if (c.epilogue() != null && epilogueLowered) {
      List<CodeBlock> args = new ArrayList<>();
      args.add(CodeBlock.of("$N", stream));
      args.addAll(arguments(c.epilogue()));
      work.addStatement("$N($L)", c.epilogue().name(), CodeBlock.join(args, ", "));
    } else if (c.epilogue() != null) {
      work.add(DeviceLauncherWriter.launch(c.epilogue(), epilogue, names, stream, kernels, resourceBase,
          arguments(c.epilogue())));
    }
    for (int i = 0; i < c.prologues().size(); i++) {
      work.endControlFlow();
    }
    if (!allocates) {
      m.addStatement("final $T $N = $N", DeviceLauncherWriter.deviceArray(c.elementType()), c.product().name(), c.direct().name());
      m.addCode(work.build());
      return m.build();
    }
    m.beginControlFlow("try ($T $N = $N.$L($L))", DeviceLauncherWriter.deviceArray(c.elementType()),
        c.product().name(), stream, DeviceCompositeWriter.temporary(c.elementType()),
        GemmCall.size(op, "the length of the matrix product", c.product().shape().length()));
    m.addCode(work.build());
    m.endControlFlow();
    return m.build();
  }

  /** The kernel's parameters, by name: the launcher's locals of those names. */
  private static List<CodeBlock> arguments(OperatorIr.Grid kernel) {
    List<CodeBlock> args = new ArrayList<>();
    for (Param p : kernel.params()) {
      args.add(CodeBlock.of("$N", p.name()));
    }
    return args;
  }
}
