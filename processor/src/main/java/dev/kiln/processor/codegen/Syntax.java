package dev.kiln.processor.codegen;

import com.palantir.javapoet.CodeBlock;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ReduceKind;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.UnaryOp;
import java.util.List;

/**
 * What differs between the languages {@link BodyEmitter} writes (Java for CPU kernels, CUDA C):
 * types, literals, casts, operators and math calls. Statement structure (blocks, {@code if},
 * {@code for}, assignments) is the same C-family syntax in both.
 */
public interface Syntax {
  /** A type, as code ({@code float}; {@code long long} in C for Java's {@code long}). */
  CodeBlock type(ScalarType t);

  /** The keyword form of a local that is never reassigned ({@code final float}, {@code const float}). */
  CodeBlock constType(ScalarType t);

  CodeBlock literal(Expr.Const c);

  CodeBlock zero(ScalarType t);

  /** {@code operand}, of type {@code from}, converted to {@code to} as Java converts it. */
  CodeBlock cast(ScalarType to, ScalarType from, CodeBlock operand);

  /** {@code (a op b)}, with the operands already typed as the IR says. */
  CodeBlock binary(BinaryOp op, ScalarType operandType, CodeBlock a, CodeBlock b);

  /**
   * {@code (a op b)} in an array index ({@code index} true) or a value. A target whose integer
   * arithmetic is not Java's (C's signed overflow is undefined) computes values Java's way and may
   * keep indices plain: an index that overflowed would be outside its array anyway.
   */
  default CodeBlock binary(BinaryOp op, ScalarType operandType, CodeBlock a, CodeBlock b, boolean index) {
    return binary(op, operandType, a, b);
  }

  /** {@code (op operand)}, as Java computes it. */
  default CodeBlock unary(UnaryOp op, ScalarType type, CodeBlock operand) {
    return CodeBlock.of("($L$L)", op.javaSymbol(), operand);
  }

  CodeBlock call(Expr.Call call, List<CodeBlock> args);

  /** The spelling of a parameter's name (a Java name may be a reserved word of the target). */
  default String identifier(String javaName) {
    return javaName;
  }

  /**
   * Whether this target's kernels add an any-order sum ({@link dev.kiln.processor.ir.Stmt.Carried#anyOrder})
   * in {@link PartialSums}' sixteen partial sums, as Java code (the CPU's kernels, so that their
   * scalar and SIMD forms agree); else in index order, as every other sum.
   */
  default boolean partialSums() {
    return false;
  }

  /** The expression {@code a (op) b} of a reduction operator. */
  CodeBlock combine(ReduceKind op, ScalarType type, CodeBlock a, CodeBlock b);

  /** The statement {@code target[index] = target[index] (op) value}. */
  default CodeBlock accumulate(ReduceKind op, ScalarType type, String target, CodeBlock index, CodeBlock value) {
    switch (op) {
      case SUM:
        return CodeBlock.builder().addStatement("$N[$L] += $L", target, index, value).build();
      case PRODUCT:
        return CodeBlock.builder().addStatement("$N[$L] *= $L", target, index, value).build();
      default:
        CodeBlock element = CodeBlock.of("$N[$L]", target, index);
        return CodeBlock.builder().addStatement("$L = $L", element, combine(op, type, element, value)).build();
    }
  }
}
