package dev.kiln.processor.frontend;

import com.sun.source.tree.AnnotationTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import dev.kiln.processor.diag.Message;
import dev.kiln.processor.diag.Reporter;
import dev.kiln.processor.ir.ArrayRole;
import dev.kiln.processor.ir.OperatorKind;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Shape;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;

/** Validates an operator's declaration and reads its {@link Signature}; reports what is wrong. */
public final class SignatureReader {
  private final Reporter reporter;

  public SignatureReader(Reporter reporter) {
    this.reporter = reporter;
  }

  /** The signature, or null after reporting errors. */
  public Signature read(OperatorSource op) {
    int before = reporter.errorCount();
    if (!op.element().getModifiers().contains(Modifier.STATIC)) {
      reporter.report(op.tree(), op.unit(), Message.OPERATOR_NOT_STATIC, op.name());
    }
    List<? extends VariableElement> elements = op.element().getParameters();
    List<? extends VariableTree> trees = op.tree().getParameters();
    Set<String> dims = new LinkedHashSet<>();
    for (int i = 0; i < elements.size(); i++) {
      if (Annotations.has(elements.get(i), Annotations.DIM)) {
        if (elements.get(i).asType().getKind() != TypeKind.INT) {
          reporter.report(trees.get(i), op.unit(), Message.DIM_NOT_INT, elements.get(i).getSimpleName());
        }
        dims.add(elements.get(i).getSimpleName().toString());
      }
    }
    List<Param> params = new ArrayList<>();
    List<Signature.RecordArray> recordArrays = new ArrayList<>();
    for (int i = 0; i < elements.size(); i++) {
      if (isRecordArray(elements.get(i))) {
        Signature.RecordArray records = recordArray(op, i, elements.get(i), trees.get(i), dims);
        if (records != null) {
          recordArrays.add(records);
          params.addAll(records.components());
        }
        continue;
      }
      Param p = param(op, i, elements.get(i), trees.get(i), dims);
      if (p != null) {
        params.add(p);
      }
    }
    // the launchers name each component's array <array>_<component>: none may be another parameter's name
    Set<String> names = new java.util.HashSet<>();
    elements.forEach(e -> names.add(e.getSimpleName().toString()));
    for (Signature.RecordArray r : recordArrays) {
      for (Param.Array c : r.components()) {
        if (!names.add(c.name())) {
          reporter.report(trees.get(r.position()), op.unit(), Message.RECORD_ARRAY_FORM,
              "the array of the components of '" + r.name() + "' would be named '" + c.name()
                  + "', as another parameter or component is (rename one)");
        }
      }
    }
    TypeMirror ret = op.element().getReturnType();
    OperatorKind kind;
    ScalarType resultType = null;
    if (ret.getKind() == TypeKind.VOID) {
      kind = OperatorKind.GRID;
    } else {
      kind = OperatorKind.ELEMENTWISE;
      resultType = ScalarType.ofJavaName(ret.getKind().isPrimitive() ? ret.toString() : "");
      if (resultType != null && resultType.isNarrow()) {
        resultType = null; // byte and short are array elements only
      }
      Tree where = op.tree().getReturnType() != null ? op.tree().getReturnType() : op.tree();
      if (resultType == null) {
        reporter.report(where, op.unit(), Message.RETURN_TYPE, op.name(), "returns " + ret);
      } else {
        for (int i = 0; i < params.size(); i++) {
          Param p = params.get(i);
          if (p instanceof Param.Array || ((Param.Scalar) p).dim()) {
            reporter.report(trees.get(p.position()), op.unit(), Message.RETURN_TYPE, op.name(),
                "returns a value but takes " + (p instanceof Param.Array ? "the array '" : "the @Dim '")
                    + p.name() + "'");
            break;
          }
        }
      }
    }
    if (kind != OperatorKind.GRID && !recordArrays.isEmpty()) {
      reporter.report(trees.get(recordArrays.get(0).position()), op.unit(), Message.RECORD_ARRAY_FORM,
          "'" + recordArrays.get(0).name() + "' is an array of records in an operator that returns a value");
    }
    return reporter.errorCount() == before ? new Signature(kind, params, resultType, recordArrays) : null;
  }

  /**
   * A parameter {@code R[] name} of a record type {@code R} as its components' arrays, each with the
   * parameter's shape and role ({@link #isRecordArray}); null after reporting what
   * is wrong with it.
   */
  /** {@code pkg.Outer$Inner}: the package and the simple names of the record and its enclosing classes. */
  /** The type of a record component in an array of records: float, double, int or long; null for any other. */
  static ScalarType componentType(javax.lang.model.element.RecordComponentElement c) {
    ScalarType type = ScalarType.ofJavaName(c.asType().toString());
    return type == ScalarType.FLOAT || type == ScalarType.DOUBLE || type == ScalarType.INT || type == ScalarType.LONG
        ? type : null;
  }

  /** The array of component {@code c} of the array of records {@code array}: {@code <array>_<component>}, as launchers name it. */
  static String componentName(String array, javax.lang.model.element.RecordComponentElement c) {
    return array + "_" + c.getSimpleName();
  }

  static String binaryName(javax.lang.model.element.TypeElement type) {
    StringBuilder names = new StringBuilder(type.getSimpleName());
    javax.lang.model.element.Element e = type.getEnclosingElement();
    for (; e instanceof javax.lang.model.element.TypeElement t; e = e.getEnclosingElement()) {
      names.insert(0, t.getSimpleName() + "$");
    }
    String pkg = ((javax.lang.model.element.PackageElement) e).getQualifiedName().toString();
    return pkg.isEmpty() ? names.toString() : pkg + "." + names;
  }

  private static boolean isRecordArray(VariableElement element) {
    return element.asType() instanceof ArrayType array
        && array.getComponentType() instanceof javax.lang.model.type.DeclaredType declared
        && declared.asElement().getKind() == javax.lang.model.element.ElementKind.RECORD;
  }

  private Signature.RecordArray recordArray(
      OperatorSource op, int position, VariableElement element, VariableTree tree, Set<String> dims) {
    javax.lang.model.element.TypeElement record = (javax.lang.model.element.TypeElement)
        ((javax.lang.model.type.DeclaredType) ((ArrayType) element.asType()).getComponentType()).asElement();
    String name = element.getSimpleName().toString();
    for (javax.lang.model.element.Element e = record; e instanceof javax.lang.model.element.TypeElement t;
        e = e.getEnclosingElement()) {
      if (t.getModifiers().contains(Modifier.PRIVATE)) {
        reporter.report(tree, op.unit(), Message.RECORD_ARRAY_FORM, "the record " + record.getSimpleName()
            + " is private" + (t == record ? "" : " in " + t.getSimpleName()) + ", and the generated launchers,"
            + " another class of the package, take arrays of it (make it package-private or public)");
        return null;
      }
    }
    boolean reduce = Annotations.has(element, Annotations.REDUCE);
    ArrayRole role = reduce ? ArrayRole.REDUCE : Annotations.has(element, Annotations.OUT) ? ArrayRole.OUT : ArrayRole.IN;
    Shape shape = arrayShape(op, element, tree, dims);
    if (shape == null) {
      return null;
    }
    List<Param.Array> components = new ArrayList<>();
    for (javax.lang.model.element.RecordComponentElement c : record.getRecordComponents()) {
      ScalarType type = componentType(c);
      if (type == null) {
        reporter.report(tree, op.unit(), Message.RECORD_ARRAY_FORM,
            "the component '" + c.getSimpleName() + "' of " + record.getSimpleName() + " is a " + c.asType()
                + ", and the components of a record in an array parameter are float, double, int or long");
        return null;
      }
      components.add(new Param.Array(componentName(name, c), position, type, shape, role,
          new Param.RecordSlot(name, binaryName(record), c.getSimpleName().toString(),
              components.size(), record.getRecordComponents().size())));
    }
    if (components.isEmpty()) {
      reporter.report(tree, op.unit(), Message.RECORD_ARRAY_FORM, record.getSimpleName() + " has no components");
      return null;
    }
    return new Signature.RecordArray(name, position, record, components);
  }

  private Param param(
      OperatorSource op, int position, VariableElement element, VariableTree tree, Set<String> dims) {
    String name = element.getSimpleName().toString();
    TypeMirror type = element.asType();
    boolean out = Annotations.has(element, Annotations.OUT);
    boolean reduce = Annotations.has(element, Annotations.REDUCE);
    if (type.getKind() == TypeKind.ARRAY) {
      TypeMirror component = ((ArrayType) type).getComponentType();
      ScalarType elementType = ScalarType.ofJavaName(component.toString());
      if (elementType == null || !(elementType == ScalarType.FLOAT || elementType == ScalarType.DOUBLE || elementType == ScalarType.INT
          || elementType == ScalarType.LONG || elementType.isNarrow())) {
        reporter.report(tree, op.unit(), Message.UNSUPPORTED_PARAMETER_TYPE, name, type);
        return null;
      }
      Shape shape = arrayShape(op, element, tree, dims);
      if (shape == null) {
        return null;
      }
      ArrayRole role = reduce ? ArrayRole.REDUCE : out ? ArrayRole.OUT : ArrayRole.IN;
      if (role == ArrayRole.REDUCE && elementType.isNarrow()) { // no 8- or 16-bit atomics or partials
        reporter.report(tree, op.unit(), Message.UNSUPPORTED_PARAMETER_TYPE, name, "@Reduce " + type);
        return null;
      }
      return new Param.Array(name, position, elementType, shape, role);
    }
    ScalarType scalar = type.getKind().isPrimitive() ? ScalarType.ofJavaName(type.toString()) : null;
    if (scalar == null || scalar.isNarrow()) {
      reporter.report(tree, op.unit(), Message.UNSUPPORTED_PARAMETER_TYPE, name, type);
      return null;
    }
    for (String a : new String[] {"Out", "Reduce", "Shape"}) {
      if (Annotations.has(element, "dev.kiln." + a)) {
        reporter.report(tree, op.unit(), Message.OUT_NOT_ARRAY, a, name);
        return null;
      }
    }
    return new Param.Scalar(name, position, scalar, dims.contains(name));
  }

  /** The {@code @Shape} of the array parameter {@code element}, or null after reporting it missing or wrong. */
  private Shape arrayShape(OperatorSource op, VariableElement element, VariableTree tree, Set<String> dims) {
    AnnotationMirror mirror = Annotations.mirror(element, Annotations.SHAPE);
    if (mirror == null) {
      reporter.report(tree, op.unit(), Message.ARRAY_WITHOUT_SHAPE, element.getSimpleName());
      return null;
    }
    return shape(op, tree, mirror, dims);
  }

  private Shape shape(OperatorSource op, VariableTree tree, AnnotationMirror mirror, Set<String> dims) {
    String text = Annotations.stringValue(mirror, "value");
    AnnotationTree annotation = Annotations.tree(tree.getModifiers(), Annotations.SHAPE);
    Tree where = annotation == null ? tree : Annotations.argumentOrSelf(annotation);
    if (text == null) {
      reporter.report(where, op.unit(), Message.SHAPE_SYNTAX, "", "it has no value");
      return null;
    }
    try {
      return ShapeParser.parse(text, dims);
    } catch (ShapeParser.ShapeException e) {
      if (e.unknownDim) {
        String hint = dims.isEmpty() ? " (it declares no @Dim parameters)" : " (its @Dim parameters are " + String.join(", ", dims) + ")";
        reporter.report(where, op.unit(), Message.SHAPE_UNKNOWN_DIM, text, e.detail, op.name(), hint);
      } else {
        reporter.report(where, op.unit(), Message.SHAPE_SYNTAX, text, e.detail);
      }
      return null;
    }
  }
}
