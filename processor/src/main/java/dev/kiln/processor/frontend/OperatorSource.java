package dev.kiln.processor.frontend;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MethodTree;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;

/** An {@code @Operator} method with its source tree and compilation unit. */
public record OperatorSource(
    ExecutableElement element, MethodTree tree, CompilationUnitTree unit, TypeElement owner) {
  public String name() {
    return element.getSimpleName().toString();
  }
}
