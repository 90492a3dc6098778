package dev.kiln.processor.codegen.cpu;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterSpec;
import dev.kiln.processor.fusion.FusionPlan;
import dev.kiln.processor.fusion.WrittenBeforeRead;
import dev.kiln.processor.ir.CompositeIr;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.Modifier;

/**
 * Writes the CPU launcher of a composite operator: its own argument checks, the temporaries that
 * fusion did not elide and no kernel keeps per worker (arrays from the runtime's pool, {@code
 * Temporaries}, given back when the kernels return, dropped when one throws, since a kernel's other
 * chunks may still be writing then; zero-filled unless their first kernel writes them in full before
 * any read, {@link WrittenBeforeRead}), then the fused kernels in order.
 */
public final class CompositeWriter {
  private CompositeWriter() {}

  static MethodSpec write(FusionPlan plan, DocLinks owner) {
    OperatorIr.Composite sig = plan.composite().signature();
    MethodSpec.Builder m = MethodSpec.methodBuilder(sig.name())
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
        .addJavadoc("Fused CPU form of the composite $L: $L after fusion ($L calls before).\n",
            owner.of(sig.name()), kernelsText(plan.kernels().size()), plan.composite().calls().size());
    for (Param p : sig.params()) {
      m.addParameter(ParameterSpec.builder(JavaTypes.of(p), p.name()).build());
    }
    m.addCode(ArgumentChecks.of(sig));
    m.addCode(prologue(plan));
    CodeBlock.Builder calls = CodeBlock.builder();
    for (FusionPlan.Kernel k : plan.kernels()) {
      calls.addStatement("$N($L)", k.ir().name(), arguments(k.cpu()));
    }
    List<CompositeIr.Temp> temps = plan.allocatedOnCpu();
    if (temps.isEmpty()) {
      return m.addCode(calls.build()).build();
    }
    String frame = frameName(sig, temps);
    m.beginControlFlow("try ($T $N = $T.open())", TEMPORARIES, frame, TEMPORARIES);
    java.util.Set<String> written = WrittenBeforeRead.onCpu(plan);
    CodeBlock anyDimZero = CodeBlock.join(sig.dims().stream().map(d -> CodeBlock.of("$N == 0", d.name())).toList(),
        " || ");
    for (CompositeIr.Temp t : temps) {
      CodeBlock length = CodeBlock.of("$T.size($S, $S, $L)", PolyCode.CHECKS, sig.name(),
          "the length " + t.length() + " of temporary '" + t.name() + "'", PolyCode.of(t.length()));
      if (written.contains(t.name()) && !sig.dims().isEmpty()) {
        m.addComment("its first kernel writes every element of $L before any kernel reads it (proved for sizes of at"
            + " least 1): zero-filled only when a size is 0", t.name());
        m.addStatement("final $T $N = $N.$L($L, $L)", JavaTypes.arrayOf(t.elementType()), t.name(), frame,
            take(t.elementType()), length, anyDimZero);
      } else {
        m.addStatement("final $T $N = $N.$L($L)", JavaTypes.arrayOf(t.elementType()), t.name(), frame,
            take(t.elementType()), length);
      }
    }
    m.addCode(calls.build());
    m.addComment("the kernels returned: the arrays may go back to the pool (after an exception they are dropped)");
    m.addStatement("$N.finished()", frame);
    m.endControlFlow();
    return m.build();
  }

  /** {@code temporaries$}, with more {@code $} while a parameter or a temporary has the name. */
  private static String frameName(OperatorIr.Composite sig, List<CompositeIr.Temp> temps) {
    String name = "temporaries$";
    while (true) {
      String n = name;
      if (sig.params().stream().noneMatch(p -> p.name().equals(n)) && temps.stream().noneMatch(t -> t.name().equals(n))) {
        return name;
      }
      name += "$";
    }
  }

  /** The runtime's pool of temporaries: zero-filled arrays taken for a call and given back after it. */
  static final ClassName TEMPORARIES = ClassName.get("dev.kiln.runtime.cpu", "Temporaries");

  /** The {@code Temporaries} method that takes an array of element type {@code t}. */
  static String take(dev.kiln.processor.ir.ScalarType t) {
    switch (t) {
      case FLOAT: return "floats";
      case DOUBLE: return "doubles";
      case LONG: return "longs";
      case SHORT: return "shorts";
      case BYTE: return "bytes";
      case BOOL: return "booleans";
      default: return "ints";
    }
  }

  static String kernelsText(int n) {
    return n == 1 ? "one kernel" : n + " kernels";
  }

  /** The derived sizes of every kernel. */
  public static CodeBlock prologue(FusionPlan plan) {
    CodeBlock.Builder code = CodeBlock.builder();
    String op = plan.composite().name();
    for (FusionPlan.Kernel k : plan.kernels()) {
      for (FusionPlan.Derived d : k.derived()) {
        code.addStatement("final int $N = $T.size($S, $S, $L)", d.param().name(), PolyCode.CHECKS, op,
            "the extent " + d.value() + " of kernel " + k.ir().name(), PolyCode.of(d.value()));
      }
    }
    return code.build();
  }

  /** Java for a size polynomial, as a saturated {@code long}. */
  public static CodeBlock sizeCode(dev.kiln.processor.ir.Poly p) {
    return PolyCode.of(p);
  }

  /** A kernel's arguments: its parameters are named after the composite's names. */
  public static CodeBlock arguments(OperatorIr kernel) {
    List<CodeBlock> args = new ArrayList<>();
    for (Param p : kernel.arguments()) {
      args.add(CodeBlock.of("$N", p.name()));
    }
    return CodeBlock.join(args, ", ");
  }
}
