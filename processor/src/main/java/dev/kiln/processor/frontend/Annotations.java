package dev.kiln.processor.frontend;

import com.sun.source.tree.AnnotationTree;
import com.sun.source.tree.ModifiersTree;
import com.sun.source.tree.Tree;
import java.util.Map;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;

/** Finds Kiln's annotations on elements (resolved by javac) and on trees (by name). */
public final class Annotations {
  public static final String OPERATOR = "dev.kiln.Operator";
  public static final String GRADIENT = "dev.kiln.Gradient";
  public static final String SHAPE = "dev.kiln.Shape";
  public static final String DIM = "dev.kiln.Dim";
  public static final String OUT = "dev.kiln.Out";
  public static final String REDUCE = "dev.kiln.Reduce";
  public static final String PARALLEL = "dev.kiln.Parallel";

  private Annotations() {}

  public static AnnotationMirror mirror(Element element, String qualifiedName) {
    for (AnnotationMirror m : element.getAnnotationMirrors()) {
      Element type = m.getAnnotationType().asElement();
      if (type instanceof TypeElement t && t.getQualifiedName().contentEquals(qualifiedName)) {
        return m;
      }
    }
    return null;
  }

  public static boolean has(Element element, String qualifiedName) {
    return mirror(element, qualifiedName) != null;
  }

  /** The string member {@code name} of an annotation mirror, or null. */
  public static String stringValue(AnnotationMirror mirror, String name) {
    for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> e :
        mirror.getElementValues().entrySet()) {
      if (e.getKey().getSimpleName().contentEquals(name) && e.getValue().getValue() instanceof String s) {
        return s;
      }
    }
    return null;
  }

  /**
   * The annotation tree among {@code modifiers} written as the simple or qualified name of {@code
   * qualifiedName}, or null. Local-variable annotations (such as {@code @Parallel}) exist only in
   * the tree, so matching by name is the only way to see them before attribution.
   */
  public static AnnotationTree tree(ModifiersTree modifiers, String qualifiedName) {
    if (modifiers == null) {
      return null;
    }
    String simple = qualifiedName.substring(qualifiedName.lastIndexOf('.') + 1);
    for (AnnotationTree a : modifiers.getAnnotations()) {
      String written = a.getAnnotationType().toString();
      if (written.equals(simple) || written.equals(qualifiedName)) {
        return a;
      }
    }
    return null;
  }

  /** The tree to report a problem with an annotation's value on: its argument, else itself. */
  public static Tree argumentOrSelf(AnnotationTree a) {
    return a.getArguments().isEmpty() ? a : a.getArguments().get(0);
  }
}
