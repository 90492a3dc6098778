package dev.kiln.processor.codegen.cpu;

import static dev.kiln.processor.codegen.cpu.SimdKernelWriter.FLOAT_MASK;
import static dev.kiln.processor.codegen.cpu.SimdKernelWriter.FLOAT_VECTOR;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import dev.kiln.processor.codegen.Names;

/**
 * What the writers of a SIMD kernel's inline math share ({@link VectorMathCode}, {@link
 * VectorRandomCode}): statements that declare one fresh local each ({@code final FloatVector exp3 =
 * ...}) in the kernel's code, and Horner's rule in fused multiply-adds.
 */
abstract class VectorStatements {
  static final ClassName INT_VECTOR = ClassName.get("jdk.incubator.vector", "IntVector");

  final CodeBlock.Builder out;
  final Names names;

  VectorStatements(CodeBlock.Builder out, Names names) {
    this.out = out;
    this.names = names;
  }

  /** Declares a fresh {@code FloatVector} named after {@code base}, {@code format} its value; returns its name. */
  final String vec(String base, String format, Object... args) {
    return declare(FLOAT_VECTOR, base, format, args);
  }

  /** The same for an {@code IntVector}. */
  final String ints(String base, String format, Object... args) {
    return declare(INT_VECTOR, base, format, args);
  }

  /** The same for a float lane mask. */
  final String mask(String base, String format, Object... args) {
    return declare(FLOAT_MASK, base, format, args);
  }

  /** Declares a fresh local of {@code type} named after {@code base}, {@code format} its value; returns its name. */
  final String declare(Object type, String base, String format, Object... args) {
    String name = names.fresh(base);
    Object[] all = new Object[args.length + 2];
    all[0] = type;
    all[1] = name;
    System.arraycopy(args, 0, all, 2, args.length);
    out.addStatement("final $T $N = " + format, all);
    return name;
  }

  /**
   * Horner's rule, one fused multiply-add a step: {@code fma(fma(c0, v, c1), v, c2) ...}, as {@code
   * Math.fma} (float literals without their {@code f}).
   */
  final String horner(String base, String v, String... coefficients) {
    String p = vec(base, "$N.fma($Lf, $Lf)", v, coefficients[0], coefficients[1]);
    for (int i = 2; i < coefficients.length; i++) {
      p = vec(base, "$N.fma($N, $N.broadcast($Lf))", p, v, v, coefficients[i]);
    }
    return p;
  }
}
