package dev.kiln.processor.codegen.cpu;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import dev.kiln.processor.codegen.Names;
import dev.kiln.processor.fusion.FusionPlan;
import dev.kiln.processor.fusion.Recompute;
import dev.kiln.processor.ir.CompositeIr;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.ScalarType;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.Modifier;

/**
 * Writes the device overload of a composite: the fused kernels' device launchers in order on one
 * stream, asynchronously. Temporaries that fusion kept are the stream's temporaries ({@code
 * CudaStream.temporaryFloats} and the like: memory reused in stream order, no allocation and no wait
 * once the stream has served one of that size), zero-filled (unless each worker reads only what it
 * stored first: {@code Recompute.storedBeforeRead}), and given back once the kernels are enqueued;
 * the temporaries that the kernels' device forms recompute instead ({@code Recompute}) are not
 * allocated at all.
 */
public final class DeviceCompositeWriter {
  private DeviceCompositeWriter() {}

  public static MethodSpec write(FusionPlan plan, DocLinks owner) {
    OperatorIr.Composite sig = plan.composite().signature();
    List<String> reserved = new ArrayList<>();
    sig.params().forEach(p -> reserved.add(p.name()));
    plan.allocated().forEach(t -> reserved.add(t.name()));
    plan.kernels().forEach(k -> k.derived().forEach(d -> reserved.add(d.param().name())));
    Names names = new Names(reserved);
    String stream = names.fresh("stream");
    MethodSpec.Builder m = MethodSpec.methodBuilder(sig.name())
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
        .addJavadoc("CUDA launch of the composite $L on {@code $L}: $L after fusion.\n", owner.of(sig.name()), stream,
            plan.kernels().size() == 1 ? "one kernel" : plan.kernels().size() + " kernels")
        .addParameter(DeviceLauncherWriter.STREAM, stream);
    for (Param p : sig.params()) {
      m.addParameter(p instanceof Param.Array a ? DeviceLauncherWriter.deviceArray(a.elementType())
          : JavaTypes.of(((Param.Scalar) p).type()), p.name());
    }
    m.addStatement("$T.notNull($S, $S, $N)", DeviceLauncherWriter.CHECKS, sig.name(), stream, stream);
    m.addCode(ArgumentChecks.of(sig, true));
    m.addCode(CompositeWriter.prologue(plan));
    CodeBlock.Builder launches = CodeBlock.builder();
    for (FusionPlan.Kernel k : plan.kernels()) {
      launches.addStatement("$N($N, $L)", k.ir().name(), stream, CompositeWriter.arguments(k.onDevice()));
    }
    List<CompositeIr.Temp> allocated = plan.allocatedOnDevice();
    if (allocated.isEmpty()) {
      m.addCode(launches.build());
      return m.build();
    }
    List<CodeBlock> resources = new ArrayList<>();
    for (CompositeIr.Temp t : allocated) {
      resources.add(CodeBlock.of("$T $N = $N.$L($T.size($S, $S, $L))", DeviceLauncherWriter.deviceArray(t.elementType()),
          t.name(), stream, temporary(t.elementType()), DeviceLauncherWriter.CHECKS, sig.name(),
          "the length of temporary '" + t.name() + "'", lengthCode(t)));
    }
    m.beginControlFlow("try ($L)", CodeBlock.join(resources, "; "));
    java.util.Set<String> stored = Recompute.storedBeforeRead(plan);
    for (CompositeIr.Temp t : allocated) {
      if (!stored.contains(t.name())) {
        m.addStatement("$N.zero()", t.name());
      }
    }
    m.addCode(launches.build());
    m.endControlFlow();
    return m.build();
  }

  private static CodeBlock lengthCode(CompositeIr.Temp t) {
    return dev.kiln.processor.codegen.cpu.CompositeWriter.sizeCode(t.length());
  }

  /** The {@code CudaStream} method that makes a temporary of element type {@code t}. */
  static String temporary(ScalarType t) {
    switch (t) {
      case FLOAT: return "temporaryFloats";
      case DOUBLE: return "temporaryDoubles";
      case LONG: return "temporaryLongs";
      case SHORT: return "temporaryShorts";
      case BYTE: return "temporaryBytes";
      default: return "temporaryInts";
    }
  }

  static String alloc(ScalarType t) {
    switch (t) {
      case FLOAT: return "allocFloats";
      case DOUBLE: return "allocDoubles";
      case LONG: return "allocLongs";
      case SHORT: return "allocShorts";
      case BYTE: return "allocBytes";
      default: return "allocInts";
    }
  }
}
