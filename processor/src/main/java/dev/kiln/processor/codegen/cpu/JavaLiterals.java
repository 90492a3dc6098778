package dev.kiln.processor.codegen.cpu;

import com.palantir.javapoet.CodeBlock;
import dev.kiln.processor.ir.Expr;

/** Java source for IR constants. */
final class JavaLiterals {
  private JavaLiterals() {}

  /** The zero of a type, as a literal. */
  static CodeBlock zero(dev.kiln.processor.ir.ScalarType t) {
    switch (t) {
      case BOOL: return CodeBlock.of("false");
      case BYTE: return CodeBlock.of("(byte) 0");
      case SHORT: return CodeBlock.of("(short) 0");
      case INT: return CodeBlock.of("0");
      case LONG: return CodeBlock.of("0L");
      case FLOAT: return CodeBlock.of("0f");
      default: return CodeBlock.of("0.0");
    }
  }

  static CodeBlock of(Expr.Const c) {
    switch (c.type()) {
      case BOOL:
        return CodeBlock.of("$L", c.booleanValue());
      case BYTE:
      case SHORT:
        return CodeBlock.of("(($L) $L)", c.type().javaName(), c.integralValue());
      case INT:
        return c.integralValue() < 0 ? CodeBlock.of("($L)", c.integralValue()) : CodeBlock.of("$L", c.integralValue());
      case LONG:
        if (c.integralValue() == Long.MIN_VALUE) {
          return CodeBlock.of("$T.MIN_VALUE", Long.class);
        }
        return c.integralValue() < 0 ? CodeBlock.of("($LL)", c.integralValue()) : CodeBlock.of("$LL", c.integralValue());
      case FLOAT: {
        float v = (float) c.floatingValue();
        if (Float.isNaN(v)) return CodeBlock.of("$T.NaN", Float.class);
        if (v == Float.POSITIVE_INFINITY) return CodeBlock.of("$T.POSITIVE_INFINITY", Float.class);
        if (v == Float.NEGATIVE_INFINITY) return CodeBlock.of("$T.NEGATIVE_INFINITY", Float.class);
        String text = Float.toString(v) + "f";
        return v < 0 || (v == 0 && 1 / v < 0) ? CodeBlock.of("($L)", text) : CodeBlock.of("$L", text);
      }
      default: {
        double v = c.floatingValue();
        if (Double.isNaN(v)) return CodeBlock.of("$T.NaN", Double.class);
        if (v == Double.POSITIVE_INFINITY) return CodeBlock.of("$T.POSITIVE_INFINITY", Double.class);
        if (v == Double.NEGATIVE_INFINITY) return CodeBlock.of("$T.NEGATIVE_INFINITY", Double.class);
        String text = Double.toString(v);
        return v < 0 || (v == 0 && 1 / v < 0) ? CodeBlock.of("($L)", text) : CodeBlock.of("$L", text);
      }
    }
  }
}
