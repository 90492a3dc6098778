package dev.kiln.processor.autodiff;

import dev.kiln.processor.ir.SourceRef;
/**
 * Why an operator has no derived gradient: a plain sentence for the diagnostic, and the source
 * construct it is about (a javac tree, or null for the operator as a whole).
 */
public final class NotDifferentiable extends Exception {
  private final transient SourceRef origin;

  public NotDifferentiable(String reason, SourceRef origin) {
    super(reason, null, false, false);
    this.origin = origin;
  }

  public String reason() {
    return getMessage();
  }

  public SourceRef origin() {
    return origin;
  }
}
