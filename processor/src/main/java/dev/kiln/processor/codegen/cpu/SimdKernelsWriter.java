package dev.kiln.processor.codegen.cpu;

import com.palantir.javapoet.AnnotationSpec;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import dev.kiln.processor.artifacts.ClassArtifacts;
import dev.kiln.processor.codegen.PartialSums;
import dev.kiln.processor.ir.OperatorIr;
import java.util.List;
import javax.annotation.processing.Generated;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;

/**
 * Writes {@code <Class>SimdKernels}: the SIMD forms of the class's grid kernels that {@link
 * SimdPlan} accepts, against the Vector API. Written only when javac resolves {@code
 * jdk.incubator.vector}, and a separate class so that the {@code Kernels} class never names a
 * Vector API type: it loads on every JVM, and calls into this class only when {@code Simd.ENABLED}.
 */
public final class SimdKernelsWriter {
  /** The fully qualified name of the Vector API type whose presence at compile time turns SIMD on. */
  public static final String FLOAT_VECTOR = "jdk.incubator.vector.FloatVector";

  private SimdKernelsWriter() {}

  /** The generated class's name for operators declared in {@code owner}. */
  public static ClassName simdName(TypeElement owner, String packageName) {
    return ClassName.get(packageName, ClassArtifacts.of(owner, packageName).simdKernelsClass());
  }

  /**
   * Whether {@code op}'s SIMD form, when the verdict is its loops form, adds a sum's terms in
   * another order than its source under {@code -Akiln.simd.sums=reorder}.
   */
  public static boolean reordersSums(OperatorIr.Grid op, SimdPlan.Verdict verdict) {
    return verdict.loops() && hasReorderableSum(op.body());
  }

  private static boolean hasReorderableSum(List<dev.kiln.processor.ir.Stmt> body) {
    // a derived gradient's own sum ("any order") keeps its sixteen partials in every form, reorder
    // or not (SimdLoops takes that path first): the scalar form's floats
    return SimdPlan.innermostLoops(body).stream().anyMatch(
        l -> SimdPlan.loopRefusal(l) == null && SimdPlan.folds(l).stream().anyMatch(
            f -> SimdLoops.reorderable(f) && dev.kiln.processor.codegen.PartialSums.of(l, f.carried()) == null));
  }

  /**
   * Whether and how {@code op} has a SIMD form (see {@link SimdPlan}), its sums reordered per lane
   * when {@code reorderSums}.
   */
  public static SimdPlan.Verdict judge(OperatorIr.Grid op, boolean reorderSums) {
    return SimdPlan.judge(op, reorderSums);
  }

  /**
   * The most characters of Java that the SIMD methods of one kernel may have together. Every kernel
   * of the test suite, the library and the sample stays under 21,000; a fused kernel of a long chain
   * of recomputed producers can reach millions (the composite fuzzer found one of 2.2 million that
   * javac refused: "code too large"), and then the kernel keeps its scalar form only.
   */
  public static final int MAX_CHARS = 200_000;

  /**
   * The SIMD methods of {@code op} ({@code declared}: the class's {@code @Operator} methods, for
   * their javadoc), or null when they are larger than {@link #MAX_CHARS} (the scalar kernel runs). */
  public static List<MethodSpec> methods(TypeElement owner, java.util.Set<String> declared, OperatorIr.Grid op,
      SimdPlan.Verdict verdict, boolean reorderSums) {
    List<MethodSpec> methods = SimdKernelWriter.write(op, new DocLinks(ClassName.get(owner), declared), verdict, reorderSums);
    long chars = 0;
    for (MethodSpec m : methods) {
      chars += m.toString().length();
    }
    return chars > MAX_CHARS ? null : methods;
  }

  /** The class, with the SIMD methods {@link #methods} wrote for each operator in {@code vectorised}. */
  public static JavaFile write(TypeElement owner, String packageName, java.util.Map<OperatorIr.Grid, List<MethodSpec>> vectorised) {
    ClassName ownerName = ClassName.get(owner);
    TypeSpec.Builder type = TypeSpec.classBuilder(simdName(owner, packageName))
        .addModifiers(Modifier.FINAL)
        .addOriginatingElement(owner)
        .addAnnotation(AnnotationSpec.builder(Generated.class)
            .addMember("value", "$S", "dev.kiln.processor.KilnProcessor").build())
        .addJavadoc("SIMD forms of the grid kernels of {@link $T}, on the Vector API. The launchers in\n"
            + "{@code $L} call them when {@code dev.kiln.runtime.simd.Simd.ENABLED}; they compute the same\n"
            + "floats as the scalar kernels.\n", ownerName, KernelsWriter.kernelsName(owner, packageName).simpleName())
        .addField(FieldSpec.builder(SimdKernelWriter.FLOAT_SPECIES, SimdKernelWriter.SPECIES,
                Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
            .initializer("$T.SPECIES_PREFERRED", SimdKernelWriter.FLOAT_VECTOR).build())
        .addField(FieldSpec.builder(TypeName.INT, SimdKernelWriter.PARTIAL_VECTORS,
                Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
            .addJavadoc("Vectors that hold an any-order sum's sixteen partials (see {@code PartialSums}).\n")
            .initializer("$T.vectors($N.length())", PartialSums.UNORDERED_SUMS, SimdKernelWriter.SPECIES).build())
        .addMethod(MethodSpec.constructorBuilder().addModifiers(Modifier.PRIVATE).build());
    vectorised.values().forEach(type::addMethods);
    return JavaFile.builder(packageName, type.build()).indent("  ").skipJavaLangImports(true).build();
  }
}
