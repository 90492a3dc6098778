package dev.kiln.processor.autodiff;

/**
 * Why an operator has no derived gradient: a plain sentence for the diagnostic, and the source
 * construct it is about (a javac tree, or null for the operator as a whole).
 */
public final class NotDifferentiable extends Exception {
  private final transient Object origin;

  public NotDifferentiable(String reason, Object origin) {
    super(reason, null, false, false);
    this.origin = origin;
  }

  public String reason() {
    return getMessage();
  }

  public Object origin() {
    return origin;
  }
}
