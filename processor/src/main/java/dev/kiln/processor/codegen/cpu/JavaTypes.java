package dev.kiln.processor.codegen.cpu;

import com.palantir.javapoet.ArrayTypeName;
import com.palantir.javapoet.TypeName;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.ScalarType;

/** Java types of IR types and parameters. */
public final class JavaTypes {
  private JavaTypes() {}

  public static TypeName of(ScalarType t) {
    switch (t) {
      case BOOL: return TypeName.BOOLEAN;
      case BYTE: return TypeName.BYTE;
      case SHORT: return TypeName.SHORT;
      case INT: return TypeName.INT;
      case LONG: return TypeName.LONG;
      case FLOAT: return TypeName.FLOAT;
      default: return TypeName.DOUBLE;
    }
  }

  static TypeName arrayOf(ScalarType t) {
    return ArrayTypeName.of(of(t));
  }

  static TypeName of(Param p) {
    return p instanceof Param.Array a ? arrayOf(a.elementType()) : of(((Param.Scalar) p).type());
  }
}
