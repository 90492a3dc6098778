package dev.kiln;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a hand-written gradient of the operator named by {@link #of()} in the same class; Kiln then
 * uses it instead of deriving one, in {@code <op>Grad} and in the backward pass of every composite
 * of this class that calls the operator.
 *
 * <p>It must have the derived gradient's signature (the processor reports KILN045 with the expected
 * signature otherwise). For an elementwise operator with one floating-point parameter {@code x}:
 * {@code float fGrad(<f's parameters>, float y, float dy)} returning {@code dy * f'(x)} ({@code y}
 * is {@code f}'s result). For a grid or composite operator: {@code void}, with {@code f}'s
 * parameters (its {@code @Out} arrays now inputs holding the forward results), then one upstream
 * gradient per floating-point output, then one {@code @Out} gradient per floating-point input
 * array, each with the shape of its array; it must overwrite the gradients. It is compiled like an
 * operator (it gets its own launcher and kernels).
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Gradient {
  /** The simple name of the operator this method is the gradient of. */
  String of();
}
