package dev.kiln.processor.frontend;

import dev.kiln.processor.ir.MathFn;
import javax.lang.model.element.ExecutableElement;

/** What a method call in an operator body refers to. */
sealed interface Callee permits Callee.Math, Callee.Operator, Callee.Unknown {
  /** A function of {@code dev.kiln.KMath} ({@code kmath}) or of {@code java.lang.Math}. */
  record Math(MathFn fn, boolean kmath) implements Callee {}

  /** Another {@code @Operator} method. */
  record Operator(ExecutableElement element) implements Callee {}

  /** Anything else, described for the diagnostic. */
  record Unknown(String description) implements Callee {}
}
