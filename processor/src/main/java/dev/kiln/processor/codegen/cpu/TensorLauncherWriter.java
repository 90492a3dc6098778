package dev.kiln.processor.codegen.cpu;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import dev.kiln.processor.codegen.MapKernels;
import dev.kiln.processor.codegen.Names;
import dev.kiln.processor.ir.ArrayRole;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.ScalarType;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.Modifier;

/**
 * Writes the device-agnostic overload of a launcher: the operator's parameters with a {@code
 * dev.kiln.runtime.Tensor} in place of each array ({@code FloatTensor} for {@code float[]}, {@code
 * DoubleTensor}, {@code IntTensor}, {@code LongTensor}, {@code ShortTensor}, {@code ByteTensor}),
 * running on {@code Kiln.device()}:
 * the CUDA launcher on the device's default stream with the tensors' device arrays, or the CPU
 * launcher with their host arrays. Each tensor is brought up to date on that side first (a copy only
 * when it is stale there); the arrays the operator writes ({@code @Out}, {@code @Reduce}) are then
 * current on that side only. For operators whose arrays all have a tensor class, and for the map
 * launchers of elementwise operators on {@code float}s.
 */
final class TensorLauncherWriter {
  static final ClassName TENSOR = ClassName.get("dev.kiln.runtime", "FloatTensor");
  /** The tensor class of each element type that has one. */
  private static final java.util.Map<ScalarType, ClassName> TENSORS = java.util.Map.of(
      ScalarType.FLOAT, TENSOR,
      ScalarType.DOUBLE, ClassName.get("dev.kiln.runtime", "DoubleTensor"),
      ScalarType.INT, ClassName.get("dev.kiln.runtime", "IntTensor"),
      ScalarType.LONG, ClassName.get("dev.kiln.runtime", "LongTensor"),
      ScalarType.SHORT, ClassName.get("dev.kiln.runtime", "ShortTensor"),
      ScalarType.BYTE, ClassName.get("dev.kiln.runtime", "ByteTensor"));
  private static final ClassName KILN = ClassName.get("dev.kiln.runtime", "Kiln");
  private static final ClassName DEVICE = ClassName.get("dev.kiln.runtime", "Device");
  private static final ClassName CUDA_RUNTIME = ClassName.get("dev.kiln.runtime.cuda", "CudaRuntime");

  private TensorLauncherWriter() {}

  /**
   * Whether {@code signature} gets a tensor overload: some array, every array of an element type
   * with a tensor class (each array type has one).
   */
  static boolean applies(OperatorIr signature) {
    boolean arrays = false;
    for (Param p : signature.params()) {
      if (p instanceof Param.Array a) {
        if (!TENSORS.containsKey(a.elementType())) {
          return false;
        }
        arrays = true;
      }
    }
    return arrays;
  }

  /**
   * Whether the elementwise operator {@code op} gets a tensor overload of its map launcher: it is
   * mapped over arrays ({@link MapKernels}), its parameters and result all {@code float}.
   */
  static boolean appliesToMap(OperatorIr.Elementwise op) {
    if (!MapKernels.exist(op) || op.resultType() != ScalarType.FLOAT) {
      return false;
    }
    for (Param p : op.params()) {
      if (((Param.Scalar) p).type() != ScalarType.FLOAT) {
        return false;
      }
    }
    return true;
  }

  /**
   * The tensor overload of the elementwise operator {@code op}'s map launcher, {@code op(a, b, ...,
   * out)} with every input a tensor (one of length 1 broadcast): the CUDA map on the device's
   * default stream, or the CPU map; {@code onDevice}: whether it has a CUDA map kernel.
   */
  static MethodSpec writeMap(OperatorIr.Elementwise op, DocLinks owner, boolean onDevice) {
    String out = Names.forParams(op).fresh("out");
    MethodSpec.Builder m = MethodSpec.methodBuilder(op.name()).addModifiers(Modifier.PUBLIC, Modifier.STATIC)
        .addJavadoc("Applies $L to every element on {@code Kiln.device()}, with tensors in place of arrays: $L\n"
            + "An input of length 1 is broadcast. Each tensor is copied to that side only when its copy there is stale;\n"
            + "{@code $N} is then current there only.\n", owner.of(op.name()), onDevice
                ? "the CUDA map on the device's default stream (asynchronous), or the CPU map."
                : "the CPU map on either device (this operator has no CUDA kernel).", out);
    List<CodeBlock> hostArgs = new ArrayList<>();
    List<CodeBlock> deviceArgs = new ArrayList<>();
    List<String> all = new ArrayList<>();
    op.params().forEach(p -> all.add(p.name()));
    all.add(out);
    for (String a : all) {
      m.addParameter(TENSOR, a);
      m.addStatement("$T.notNull($S, $S, $N)", PolyCode.CHECKS, op.name(), a, a);
      hostArgs.add(CodeBlock.of("$N.hostArray()", a));
      deviceArgs.add(CodeBlock.of("$N.deviceArray()", a));
    }
    if (onDevice) {
      m.beginControlFlow("if ($T.device() == $T.CUDA)", KILN, DEVICE);
      deviceArgs.add(0, CodeBlock.of("$T.device().defaultStream()", CUDA_RUNTIME));
      m.addStatement("$N($L)", op.name(), CodeBlock.join(deviceArgs, ", "));
      m.addStatement("$N.deviceWritten()", out);
      m.addStatement("return");
      m.endControlFlow();
    }
    m.addStatement("$N($L)", op.name(), CodeBlock.join(hostArgs, ", "));
    m.addStatement("$N.hostWritten()", out);
    return m.build();
  }

  /**
   * The overload of {@code signature}'s launchers; {@code onDevice}: whether it has a CUDA launcher
   * (without one it runs on the CPU whatever the device, and says so).
   */
  static MethodSpec write(OperatorIr signature, DocLinks owner, boolean onDevice) {
    MethodSpec.Builder m = MethodSpec.methodBuilder(signature.name()).addModifiers(Modifier.PUBLIC, Modifier.STATIC);
    List<CodeBlock> hostArgs = new ArrayList<>();
    List<CodeBlock> deviceArgs = new ArrayList<>();
    List<String> written = new ArrayList<>();
    CodeBlock.Builder checks = CodeBlock.builder();
    for (Param p : signature.params()) {
      if (p instanceof Param.Array a) {
        m.addParameter(TENSORS.get(a.elementType()), a.name());
        checks.addStatement("$T.notNull($S, $S, $N)", PolyCode.CHECKS, signature.name(), a.name(), a.name());
        hostArgs.add(CodeBlock.of("$N.hostArray()", a.name()));
        deviceArgs.add(CodeBlock.of("$N.deviceArray()", a.name()));
        if (a.role() == ArrayRole.OUT || a.role() == ArrayRole.REDUCE) {
          written.add(a.name());
        }
      } else {
        Param.Scalar s = (Param.Scalar) p;
        m.addParameter(JavaTypes.of(s.type()), s.name());
        hostArgs.add(CodeBlock.of("$N", s.name()));
        deviceArgs.add(CodeBlock.of("$N", s.name()));
      }
    }
    m.addJavadoc("$L on {@code Kiln.device()}, with tensors in place of arrays: $L Each tensor is\n"
        + "copied to that side only when its copy there is stale; the arrays it writes are then current there only.\n",
        owner.of(signature.name()), onDevice
            ? "the CUDA launcher on the device's default stream (asynchronous), or the CPU launcher."
            : "the CPU launcher on either device (this operator has no CUDA kernel).");
    m.addCode(checks.build());
    if (onDevice) {
      m.beginControlFlow("if ($T.device() == $T.CUDA)", KILN, DEVICE);
      List<CodeBlock> all = new ArrayList<>();
      all.add(CodeBlock.of("$T.device().defaultStream()", CUDA_RUNTIME));
      all.addAll(deviceArgs);
      m.addStatement("$N($L)", signature.name(), CodeBlock.join(all, ", "));
      written.forEach(w -> m.addStatement("$N.deviceWritten()", w));
      m.addStatement("return");
      m.endControlFlow();
    }
    m.addStatement("$N($L)", signature.name(), CodeBlock.join(hostArgs, ", "));
    written.forEach(w -> m.addStatement("$N.hostWritten()", w));
    return m.build();
  }
}
