package dev.kiln.processor.ir.io;

import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import java.util.List;
import java.util.Locale;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;

/** Whether an operator's IR read from the classpath has the signature of its method in the class file. */
final class SignatureMatch {
  private SignatureMatch() {}

  /** What differs, or null when the IR's parameters and result are the method's. */
  static String mismatch(ExecutableElement method, OperatorIr ir) {
    List<? extends VariableElement> params = method.getParameters();
    if (params.size() != ir.params().size()) {
      return "the method has " + params.size() + " parameters, the IR " + ir.params().size();
    }
    for (int i = 0; i < params.size(); i++) {
      Param p = ir.params().get(i);
      String inIr = p instanceof Param.Scalar s ? s.type().javaName()
          : ((Param.Array) p).elementType().javaName() + "[]";
      String inClass = javaName(params.get(i).asType());
      if (!inIr.equals(inClass)) {
        return "parameter " + (i + 1) + " is " + inClass + " in the class and " + inIr + " in the IR";
      }
    }
    String result = ir instanceof OperatorIr.Elementwise map ? map.resultType().javaName() : "void";
    String returns = javaName(method.getReturnType());
    if (!result.equals(returns)) {
      return "the method returns " + returns + ", the IR " + result;
    }
    return null;
  }

  /** {@code float}, {@code float[]}, {@code void}; another type as javac prints it. */
  private static String javaName(TypeMirror t) {
    if (t.getKind() == TypeKind.ARRAY) {
      return javaName(((ArrayType) t).getComponentType()) + "[]";
    }
    if (t.getKind().isPrimitive() || t.getKind() == TypeKind.VOID) {
      return t.getKind().name().toLowerCase(Locale.ROOT); // BOOLEAN -> boolean, as Java spells it
    }
    return t.toString();
  }
}
