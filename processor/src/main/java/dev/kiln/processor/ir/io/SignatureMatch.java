package dev.kiln.processor.ir.io;

import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import java.util.ArrayList;
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

  /**
   * What differs, or null when the IR's parameters and result are the method's. An array of
   * records is one parameter of the method and one IR parameter per component, at the same position.
   */
  static String mismatch(ExecutableElement method, OperatorIr ir) {
    List<? extends VariableElement> params = method.getParameters();
    List<List<Param>> byPosition = new ArrayList<>();
    for (Param p : ir.params()) {
      if (p.position() == byPosition.size()) {
        byPosition.add(new ArrayList<>());
      }
      if (p.position() != byPosition.size() - 1) {
        return "the IR's parameter '" + p.name() + "' is out of order";
      }
      byPosition.get(p.position()).add(p);
    }
    if (params.size() != byPosition.size()) {
      return "the method has " + params.size() + " parameters, the IR " + byPosition.size();
    }
    for (int i = 0; i < params.size(); i++) {
      String inIr = javaName(byPosition.get(i));
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

  /** The Java type of one parameter's IR parameters: a scalar, an array, or the components of an array of records. */
  private static String javaName(List<Param> ps) {
    Param p = ps.get(0);
    if (p instanceof Param.Scalar s) {
      return ps.size() == 1 ? s.type().javaName() : "(several parameters at one position)";
    }
    Param.RecordSlot r = ((Param.Array) p).record();
    if (r == null) {
      return ps.size() == 1 ? ((Param.Array) p).elementType().javaName() + "[]" : "(several parameters at one position)";
    }
    for (int k = 0; k < ps.size(); k++) {
      if (!(ps.get(k) instanceof Param.Array a) || a.record() == null || a.record().index() != k
          || a.record().count() != ps.size() || !a.record().recordClass().equals(r.recordClass())) {
        return "(an array of " + r.recordClass() + " whose components are not all there, in order)";
      }
    }
    return r.recordClass().replace('$', '.') + "[]";
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
