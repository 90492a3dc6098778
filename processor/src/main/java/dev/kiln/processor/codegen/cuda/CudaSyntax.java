package dev.kiln.processor.codegen.cuda;

import com.palantir.javapoet.CodeBlock;
import dev.kiln.processor.codegen.Syntax;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ReduceKind;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.UnaryOp;
import java.util.List;

/**
 * CUDA C. Where C and Java differ, it spells Java's meaning: shift counts are masked, {@code >>>}
 * shifts an unsigned value, floating-point {@code %} is {@code fmod}, and every math function goes
 * through {@code kiln/math.cuh}, whose {@code min}/{@code max} propagate NaN as Java's do.
 */
final class CudaSyntax implements Syntax {
  static final CudaSyntax INSTANCE = new CudaSyntax();

  private CudaSyntax() {}

  static String typeName(ScalarType t) {
    switch (t) {
      case BOOL: return "bool";
      case BYTE: return "signed char";
      case SHORT: return "short";
      case INT: return "int";
      case LONG: return "long long";
      case FLOAT: return "float";
      default: return "double";
    }
  }

  @Override
  public String identifier(String javaName) {
    return CudaNames.identifier(javaName);
  }

  @Override
  public CodeBlock type(ScalarType t) {
    return CodeBlock.of("$L", typeName(t));
  }

  @Override
  public CodeBlock constType(ScalarType t) {
    return CodeBlock.of("const $L", typeName(t));
  }

  @Override
  public CodeBlock literal(Expr.Const c) {
    switch (c.type()) {
      case BOOL:
        return CodeBlock.of("$L", c.booleanValue());
      case BYTE:
      case SHORT:
        return CodeBlock.of("(($L) $L)", typeName(c.type()), c.integralValue());
      case INT:
        return c.integralValue() == Integer.MIN_VALUE ? CodeBlock.of("(-2147483647 - 1)")
            : c.integralValue() < 0 ? CodeBlock.of("($L)", c.integralValue()) : CodeBlock.of("$L", c.integralValue());
      case LONG:
        return c.integralValue() == Long.MIN_VALUE ? CodeBlock.of("(-9223372036854775807LL - 1)")
            : c.integralValue() < 0 ? CodeBlock.of("($LLL)", c.integralValue()) : CodeBlock.of("$LLL", c.integralValue());
      case FLOAT: {
        float v = (float) c.floatingValue();
        if (Float.isNaN(v) || Float.isInfinite(v)) {
          return CodeBlock.of("__int_as_float(0x$L)", Integer.toHexString(Float.floatToRawIntBits(v)));
        }
        String text = Float.toString(v) + "f";
        return v < 0 || (v == 0 && 1 / v < 0) ? CodeBlock.of("($L)", text) : CodeBlock.of("$L", text);
      }
      default: {
        double v = c.floatingValue();
        if (Double.isNaN(v) || Double.isInfinite(v)) {
          return CodeBlock.of("__longlong_as_double(0x$LLL)", Long.toHexString(Double.doubleToRawLongBits(v)));
        }
        String text = Double.toString(v);
        return v < 0 || (v == 0 && 1 / v < 0) ? CodeBlock.of("($L)", text) : CodeBlock.of("$L", text);
      }
    }
  }

  @Override
  public CodeBlock zero(ScalarType t) {
    switch (t) {
      case BOOL: return CodeBlock.of("false");
      case BYTE: return CodeBlock.of("((signed char) 0)");
      case SHORT: return CodeBlock.of("((short) 0)");
      case INT: return CodeBlock.of("0");
      case LONG: return CodeBlock.of("0LL");
      case FLOAT: return CodeBlock.of("0.0f");
      default: return CodeBlock.of("0.0");
    }
  }

  /**
   * A C cast, except from a floating type to an integral one: C leaves a value out of the target's
   * range (NaN included) undefined, where Java gives 0 for NaN and the nearest end of the range
   * otherwise, so those go through {@code kiln::java_int} or {@code kiln::java_long} ({@code
   * kiln.cuh}), then narrow as Java does ({@code (short) (int) x}).
   */
  @Override
  public CodeBlock cast(ScalarType to, ScalarType from, CodeBlock operand) {
    if (from.isFloating() && to.isIntegral()) {
      CodeBlock whole = CodeBlock.of("kiln::java_$L($L)", to == ScalarType.LONG ? "long" : "int", operand);
      return to == ScalarType.LONG || to == ScalarType.INT ? whole : CodeBlock.of("(($L) $L)", typeName(to), whole);
    }
    return CodeBlock.of("(($L) $L)", typeName(to), operand);
  }

  @Override
  public CodeBlock binary(BinaryOp op, ScalarType t, CodeBlock a, CodeBlock b) {
    return binary(op, t, a, b, false);
  }

  /**
   * Java's integer arithmetic: {@code int} and {@code long} sums, differences, products and left
   * shifts wrap (JLS 15.17-15.19), where C's signed overflow is undefined (nvcc may assume it never
   * happens), so they are computed on the unsigned type and converted back; {@code MIN / -1} is
   * {@code MIN} and {@code MIN % -1} is 0, where C traps or is undefined. A {@code long} sum or
   * product in an array index (the 64-bit index arithmetic of {@link dev.kiln.processor.ir.transform.IndexWidening}) stays plain:
   * one that overflowed would be far outside its array.
   */
  @Override
  public CodeBlock binary(BinaryOp op, ScalarType t, CodeBlock a, CodeBlock b, boolean index) {
    int bits = t == ScalarType.LONG ? 63 : 31;
    boolean integral = t == ScalarType.INT || t == ScalarType.LONG;
    boolean wraps = t == ScalarType.INT || (t == ScalarType.LONG && !index);
    switch (op) {
      case ADD:
      case SUB:
      case MUL:
        if (wraps) {
          return CodeBlock.of("(($L) (($L) $L $L ($L) $L))", typeName(t), unsignedName(t), a, op.javaSymbol(),
              unsignedName(t), b);
        }
        return CodeBlock.of("($L $L $L)", a, op.javaSymbol(), b);
      case DIV:
        if (integral) {
          return CodeBlock.of("kiln::java_div($L, $L)", a, b);
        }
        return CodeBlock.of("($L $L $L)", a, op.javaSymbol(), b);
      case SHL:
        if (integral) {
          return CodeBlock.of("(($L) (($L) $L << ($L & $L)))", typeName(t), unsignedName(t), a, b, bits);
        }
        return CodeBlock.of("($L $L ($L & $L))", a, op.javaSymbol(), b, bits);
      case SHR:
        return CodeBlock.of("($L $L ($L & $L))", a, op.javaSymbol(), b, bits);
      case USHR:
        return t == ScalarType.LONG
            ? CodeBlock.of("((long long) ((unsigned long long) $L >> ($L & 63)))", a, b)
            : CodeBlock.of("((int) ((unsigned int) $L >> ($L & 31)))", a, b);
      case REM:
        if (t.isFloating()) {
          return CodeBlock.of("$L($L, $L)", t == ScalarType.FLOAT ? "fmodf" : "fmod", a, b);
        }
        return CodeBlock.of("kiln::java_rem($L, $L)", a, b);
      default:
        return CodeBlock.of("($L $L $L)", a, op.javaSymbol(), b);
    }
  }

  /** Negation: an {@code int} or {@code long} on its unsigned type ({@code -MIN} is {@code MIN}, as in Java). */
  @Override
  public CodeBlock unary(UnaryOp op, ScalarType t, CodeBlock operand) {
    if (op == UnaryOp.NEG && (t == ScalarType.INT || t == ScalarType.LONG)) {
      return CodeBlock.of("(($L) (0 - ($L) $L))", typeName(t), unsignedName(t), operand);
    }
    return CodeBlock.of("($L$L)", op.javaSymbol(), operand);
  }

  /** {@code target[index] (op)= value}; an {@code int} or {@code long} sum or product wraps (see {@link #binary}). */
  @Override
  public CodeBlock accumulate(ReduceKind op, ScalarType type, String target, CodeBlock index, CodeBlock value) {
    if ((op == ReduceKind.SUM || op == ReduceKind.PRODUCT) && (type == ScalarType.INT || type == ScalarType.LONG)) {
      CodeBlock element = CodeBlock.of("$N[$L]", target, index);
      return CodeBlock.builder().addStatement("$L = $L", element, combine(op, type, element, value)).build();
    }
    return Syntax.super.accumulate(op, type, target, index, value);
  }

  private static String unsignedName(ScalarType t) {
    return t == ScalarType.LONG ? "unsigned long long" : "unsigned int";
  }

  @Override
  public CodeBlock call(Expr.Call call, List<CodeBlock> args) {
    return CodeBlock.of("kiln::$L($L)", call.fn().javaName(), CodeBlock.join(args, ", "));
  }

  @Override
  public CodeBlock combine(ReduceKind op, ScalarType type, CodeBlock a, CodeBlock b) {
    switch (op) {
      case SUM: return binary(BinaryOp.ADD, type, a, b, false);
      case PRODUCT: return binary(BinaryOp.MUL, type, a, b, false);
      default: return CodeBlock.of("kiln::$L($L, $L)", op == ReduceKind.MAX ? "max" : "min", a, b);
    }
  }

  /** The functor of {@code kiln/reduce.cuh} for a reduction operator. */
  static String functor(ReduceKind op, ScalarType type) {
    String name = switch (op) {
      case SUM -> "SumOp";
      case PRODUCT -> "ProductOp";
      case MAX -> "MaxOp";
      case MIN -> "MinOp";
    };
    return "kiln::" + name + "<" + typeName(type) + ">()";
  }
}
