package dev.kiln.processor.codegen.cpu;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import dev.kiln.processor.codegen.Syntax;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.MathFn;
import dev.kiln.processor.ir.ReduceKind;
import dev.kiln.processor.ir.ScalarType;
import java.util.List;

/** Java, for CPU kernels: the IR's semantics are Java's, so this is a direct spelling. */
final class JavaSyntax implements Syntax {
  @Override
  public boolean partialSums() {
    return true;
  }

  static final JavaSyntax INSTANCE = new JavaSyntax();
  static final ClassName KMATH = ClassName.get("dev.kiln", "KMath");
  static final ClassName KRANDOM = ClassName.get("dev.kiln", "KRandom");

  private JavaSyntax() {}

  @Override
  public CodeBlock type(ScalarType t) {
    return CodeBlock.of("$T", JavaTypes.of(t));
  }

  @Override
  public CodeBlock constType(ScalarType t) {
    return CodeBlock.of("final $T", JavaTypes.of(t));
  }

  @Override
  public CodeBlock literal(Expr.Const c) {
    return JavaLiterals.of(c);
  }

  @Override
  public CodeBlock zero(ScalarType t) {
    return JavaLiterals.zero(t);
  }

  @Override
  public CodeBlock cast(ScalarType to, ScalarType from, CodeBlock operand) {
    return CodeBlock.of("(($T) $L)", JavaTypes.of(to), operand);
  }

  @Override
  public CodeBlock binary(BinaryOp op, ScalarType operandType, CodeBlock a, CodeBlock b) {
    return CodeBlock.of("($L $L $L)", a, op.javaSymbol(), b);
  }

  /** KMath for its functions in float, and for those java.lang.Math lacks; Math otherwise. */
  @Override
  public CodeBlock call(Expr.Call call, List<CodeBlock> args) {
    MathFn fn = call.fn();
    boolean kmath = !fn.inJavaMath() || (call.type() == ScalarType.FLOAT && fn.inKMath());
    ClassName owner = fn.random() ? KRANDOM : kmath ? KMATH : ClassName.get(Math.class);
    return CodeBlock.of("$T.$L($L)", owner, fn.javaName(), CodeBlock.join(args, ", "));
  }

  @Override
  public CodeBlock combine(ReduceKind op, ScalarType type, CodeBlock a, CodeBlock b) {
    switch (op) {
      case SUM: return CodeBlock.of("($L + $L)", a, b);
      case PRODUCT: return CodeBlock.of("($L * $L)", a, b);
      default: return CodeBlock.of("$T.$L($L, $L)", Math.class, op == ReduceKind.MAX ? "max" : "min", a, b);
    }
  }
}
