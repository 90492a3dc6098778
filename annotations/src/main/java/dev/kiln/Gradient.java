package dev.kiln;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a hand-written gradient of the operator named by {@link #of()} in the same class.
 *
 * <p>Gradients are not compiled yet: the processor accepts the annotation and reports a note (see
 * the README's status table).
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Gradient {
  /** The simple name of the operator this method is the gradient of. */
  String of();
}
