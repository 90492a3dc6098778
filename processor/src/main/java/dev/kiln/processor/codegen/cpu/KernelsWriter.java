package dev.kiln.processor.codegen.cpu;

import com.palantir.javapoet.AnnotationSpec;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.TypeSpec;
import dev.kiln.processor.artifacts.ClassArtifacts;
import dev.kiln.processor.codegen.MapKernels;
import dev.kiln.processor.codegen.cuda.KernelInfo;
import dev.kiln.processor.contraction.Contraction;
import dev.kiln.processor.fusion.FusionPlan;
import dev.kiln.processor.ir.OperatorIr;
import java.util.List;
import java.util.Map;
import javax.annotation.processing.Generated;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;

/** Writes {@code <Class>Kernels}: the CPU form of every operator of one annotated class. */
public final class KernelsWriter {
  private KernelsWriter() {}

  /** The generated class's name for operators declared in {@code owner}. */
  public static ClassName kernelsName(TypeElement owner, String packageName) {
    return ClassName.get(packageName, ClassArtifacts.of(owner, packageName).kernelsClass());
  }

  /**
   * The Kernels class of {@code owner}: CPU launchers for every operator, and device launchers for
   * those with a CUDA kernel in {@code cuda}.
   *
   * @param resourceBase {@code <package path>/<Class>}: where the class's .cu and .ptx lie under META-INF/kiln
   */
  public static JavaFile write(TypeElement owner, String packageName, List<OperatorIr> operators,
      List<FusionPlan> composites, Map<String, KernelInfo> cuda, String resourceBase,
      Map<String, Contraction> contractions) {
    return write(owner, packageName, operators, composites, cuda, resourceBase, contractions, java.util.Set.of(), java.util.Set.of(),
        Map.of(), Map.of(), Map.of());
  }

  /**
   * The kernel {@code kernel} of {@code owner} as an exception names it: {@code Ops.scale (Ops.java:12)}
   * for an operator, {@code Ops.softmaxGrad_k0 (from Ops.softmax, Ops.java:40)} for a kernel made
   * from one (the operator whose name is the longest prefix of the kernel's).
   *
   * @param lines each {@code @Operator} method's {@code File.java:line}
   */
  static String describe(ClassName owner, String kernel, Map<String, String> lines) {
    String name = owner.simpleName() + "." + kernel;
    if (lines.containsKey(kernel)) {
      return name + " (" + lines.get(kernel) + ")";
    }
    String from = DocLinks.madeFrom(kernel, lines.keySet());
    return from == null ? name : name + " (from " + owner.simpleName() + "." + from + ", " + lines.get(from) + ")";
  }

  /**
   * As above; the grid operators named in {@code simd} have a SIMD form in {@link
   * SimdKernelsWriter#simdName}, which their launchers call when the JVM has the Vector API (those in
   * {@code simdReordersSums}, whose sums are reordered, from the first call, the others once faster
   * than their scalar forms); a
   * kernel in {@code cpuForms} runs that form on the CPU (its per-worker form, {@link
   * FusionPlan.Kernel#cpu}), and one in {@code deviceForms} that form on the device ({@link
   * FusionPlan.Kernel#onDevice}); others run the operator itself.
   */
  public static JavaFile write(TypeElement owner, String packageName, List<OperatorIr> operators,
      List<FusionPlan> composites, Map<String, KernelInfo> cuda, String resourceBase,
      Map<String, Contraction> contractions, java.util.Set<String> simd, java.util.Set<String> simdReordersSums,
      Map<String, String> lines,
      Map<String, OperatorIr.Grid> cpuForms, Map<String, OperatorIr.Grid> deviceForms) {
    ClassName simdClass = SimdKernelsWriter.simdName(owner, packageName);
    // kernels a contraction's launcher calls after its own checks: epilogues and prologues
    java.util.Set<String> epilogues = new java.util.HashSet<>();
    contractions.values().forEach(c -> {
      if (c.epilogue() != null) {
        epilogues.add(c.epilogue().name());
      }
      c.prologues().forEach(p -> epilogues.add(p.name()));
    });
    ClassName ownerName = ClassName.get(owner);
    DocLinks docs = new DocLinks(ownerName, lines.keySet());
    ClassName name = kernelsName(owner, packageName);
    TypeSpec.Builder type = TypeSpec.classBuilder(name)
        .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
        .addOriginatingElement(owner)
        .addAnnotation(AnnotationSpec.builder(Generated.class)
            .addMember("value", "$S", "dev.kiln.processor.KilnProcessor").build())
        .addJavadoc("CPU kernels compiled by Kiln from the {@code @Operator} methods of {@link $T}.\n"
            + "Each method has its operator's parameters and behaviour; grid operators check their\n"
            + "arguments and run in parallel on {@code dev.kiln.runtime.cpu.CpuExecutor}. Operators\n"
            + "with a CUDA kernel also have a device overload taking a stream and device arrays, and\n"
            + "operators on float arrays an overload taking {@code FloatTensor}s that runs on {@code Kiln.device()}.\n", ownerName)
        .addMethod(MethodSpec.constructorBuilder().addModifiers(Modifier.PRIVATE).build());
    for (OperatorIr operator : operators) {
      if (operator instanceof OperatorIr.Elementwise map) {
        type.addMethod(ElementwiseWriter.scalar(map, docs));
        if (MapKernels.exist(map)) {
          ElementwiseWriter.maps(map, docs).forEach(type::addMethod);
        }
        if (TensorLauncherWriter.appliesToMap(map)) {
          type.addMethod(TensorLauncherWriter.writeMap(map, docs, cuda.containsKey(map.name())));
        }
        KernelInfo kernel = cuda.get(map.name());
        if (kernel != null) {
          type.addMethod(DeviceLauncherWriter.write(map, kernel, docs, name, resourceBase));
        }
        continue;
      }
      OperatorIr.Grid op = (OperatorIr.Grid) operator; // composites are written from their plans below
      if (!epilogues.contains(op.name()) && RecordArrayLauncherWriter.applies(op)) {
        type.addMethod(RecordArrayLauncherWriter.write(op, docs));
      }
      if (contractions.containsKey(op.name())) {
        Contraction c = contractions.get(op.name());
        type.addMethod(GemmLauncherWriter.write(c, docs));
        type.addMethod(ArgumentChecks.dimsHelper(op));
        boolean onDevice = onDevice(c, contractions, cuda);
        if (onDevice) {
          boolean lowered = c.epilogue() != null && contractions.containsKey(c.epilogue().name());
          KernelInfo epilogue = c.epilogue() == null || lowered ? null : cuda.get(c.epilogue().name());
          List<KernelInfo> prologues = c.prologues().stream().map(p -> cuda.get(p.name())).toList();
          type.addMethod(DeviceGemmLauncherWriter.write(c, epilogue, lowered, prologues, docs, name, resourceBase));
        }
        if (!epilogues.contains(op.name()) && TensorLauncherWriter.applies(op)) {
          type.addMethod(TensorLauncherWriter.write(op, docs, onDevice));
        }
        continue;
      } else if (epilogues.contains(op.name())) {
        type.addMethod(GridKernelWriter.write(op, docs, false, simd.contains(op.name()) ? simdClass : null,
            describe(ownerName, op.name(), lines), simdReordersSums.contains(op.name())));
        continue; // an internal kernel: called by its contraction's launcher, after its checks
      } else {
        type.addMethod(GridKernelWriter.write(cpuForms.getOrDefault(op.name(), op), docs, true,
            simd.contains(op.name()) ? simdClass : null, describe(ownerName, op.name(), lines),
            simdReordersSums.contains(op.name())));
        type.addMethod(ArgumentChecks.dimsHelper(op));
      }
      KernelInfo kernel = cuda.get(op.name());
      if (kernel != null) {
        type.addMethod(DeviceLauncherWriter.write(deviceForms.getOrDefault(op.name(), op), kernel, docs, name,
            resourceBase));
      }
      // no tensor overload for a fused composite's kernel (every one has a CPU form): its composite's
      // launchers call it
      if (!cpuForms.containsKey(op.name()) && TensorLauncherWriter.applies(op)) {
        type.addMethod(TensorLauncherWriter.write(op, docs, kernel != null));
      }
    }
    for (FusionPlan plan : composites) {
      type.addMethod(CompositeWriter.write(plan, docs));
      if (RecordArrayLauncherWriter.applies(plan.composite().signature())) {
        type.addMethod(RecordArrayLauncherWriter.write(plan.composite().signature(), docs));
      }
      type.addMethod(ArgumentChecks.dimsHelper(plan.composite().signature()));
      boolean onDevice = plan.kernels().stream().allMatch(k -> cuda.containsKey(k.ir().name()));
      if (onDevice) {
        type.addMethod(DeviceCompositeWriter.write(plan, docs));
      }
      if (TensorLauncherWriter.applies(plan.composite().signature())) {
        type.addMethod(TensorLauncherWriter.write(plan.composite().signature(), docs, onDevice));
      }
    }
    return JavaFile.builder(packageName, type.build()).indent("  ").skipJavaLangImports(true).build();
  }

  /**
   * Whether a contraction runs on the device: its own kernel compiled for CUDA, and each of its
   * prologues, and its epilogue (compiled, or itself a contraction that runs on the device).
   */
  private static boolean onDevice(Contraction c, Map<String, Contraction> contractions, Map<String, KernelInfo> cuda) {
    if (!cuda.containsKey(c.op().name()) || !c.prologues().stream().allMatch(p -> cuda.containsKey(p.name()))) {
      return false;
    }
    if (c.epilogue() == null) {
      return true;
    }
    Contraction nested = contractions.get(c.epilogue().name());
    return nested != null ? onDevice(nested, contractions, cuda) : cuda.containsKey(c.epilogue().name());
  }
}
