package dev.kiln.processor.fuzz;

import java.util.List;

/** A generated operator class: its source and the operators it declares. */
record GeneratedClass(long seed, String packageName, String simpleName, String source, List<OperatorSpec> operators) {
  String qualifiedName() {
    return packageName + "." + simpleName;
  }

  String kernelsName() {
    return qualifiedName() + "Kernels";
  }
}
