package dev.kiln.processor.frontend;

import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import dev.kiln.processor.diag.KilnDiagnostic;
import dev.kiln.processor.diag.Message;
import dev.kiln.processor.ir.ScalarType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.RecordComponentElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeMirror;

/**
 * A Java record whose values an operator body may hold in locals, pass to and return from the
 * record's own methods, and carry through sequential loops: each component a scalar. The front end
 * replaces a record value by its components (one IR value each), so nothing of the record is left
 * in the IR or in the generated kernels; the plain Java still allocates it and is the reference.
 */
record RecordType(TypeElement element, List<Component> components) {
  /** One component: its name and scalar type. */
  record Component(String name, ScalarType type) {}

  String name() {
    return element.getSimpleName().toString();
  }

  /** The index of the component named {@code name}, or -1. */
  int indexOf(String name) {
    for (int i = 0; i < components.size(); i++) {
      if (components.get(i).name().equals(name)) {
        return i;
      }
    }
    return -1;
  }

  /** The record type of {@code type}, or null when it is not a record. */
  static TypeElement recordElement(TypeMirror type) {
    if (type instanceof DeclaredType d && d.asElement() instanceof TypeElement e && e.getKind() == ElementKind.RECORD) {
      return e;
    }
    return null;
  }

  /** The scalar type of a primitive type mirror, or null. */
  static ScalarType scalar(TypeMirror type) {
    return type.getKind().isPrimitive()
        ? ScalarType.ofJavaName(type.getKind().name().toLowerCase(Locale.ROOT))
        : null;
  }

  /**
   * Reads {@code element} as a record an operator may use, or explains why not on {@code at}: every
   * component a {@code float}, {@code double}, {@code int}, {@code long} or {@code boolean}, and no
   * canonical constructor with statements of its own (the components are exactly the arguments).
   */
  static RecordType of(TypeElement element, Tree at, FrontEndSources sources) {
    String name = element.getSimpleName().toString();
    if (element.getKind() != ElementKind.RECORD) {
      throw new KilnDiagnostic(at, Message.RECORD_FORM, name, "it is not a record");
    }
    List<Component> components = new ArrayList<>();
    for (RecordComponentElement c : element.getRecordComponents()) {
      ScalarType type = scalar(c.asType());
      if (type == null || type == ScalarType.SHORT || type == ScalarType.BYTE) {
        throw new KilnDiagnostic(at, Message.RECORD_FORM, name,
            "its component '" + c.getSimpleName() + "' is a " + c.asType()
                + " (components are float, double, int, long or boolean)");
      }
      components.add(new Component(c.getSimpleName().toString(), type));
    }
    for (Element e : element.getEnclosedElements()) {
      if (e.getKind() == ElementKind.CONSTRUCTOR
          && ((ExecutableElement) e).getParameters().size() == components.size()
          && sources.isExplicit(e)) {
        MethodTree tree = sources.tree((ExecutableElement) e);
        if (tree != null && tree.getBody() != null && !tree.getBody().getStatements().isEmpty()
            && !onlyAssignsFields(tree)) {
          throw new KilnDiagnostic(at, Message.RECORD_FORM, name,
              "its canonical constructor has statements of its own, which Kiln does not run (remove them, or"
                  + " compute the components before new " + name + "(...))");
        }
      }
    }
    return new RecordType(element, List.copyOf(components));
  }

  /** A canonical constructor written out as {@code this.x = x;} for each component. */
  private static boolean onlyAssignsFields(MethodTree tree) {
    for (var s : tree.getBody().getStatements()) {
      String text = s.toString().replace(" ", "");
      if (!text.matches("this\\.(\\w+)=\\1;")) {
        return false;
      }
    }
    return true;
  }

  /** What the front end knows of method sources, for the checks above and for inlining. */
  interface FrontEndSources {
    /** Whether {@code e} is written in the source (not implicitly declared). */
    boolean isExplicit(Element e);

    /** Whether {@code type} is compiled from source in this compilation. */
    boolean hasSource(TypeElement type);

    /** The tree of {@code method}, or null when it was compiled elsewhere. */
    MethodTree tree(ExecutableElement method);
  }
}
