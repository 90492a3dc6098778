package dev.kiln;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The logical, row-major shape of an array parameter, as comma-separated extents over the
 * operator's {@link Dim} parameters: {@code "B, 4*H"}, {@code "N + 2"}, {@code "1"}. Extents are
 * products and sums of dims and integer literals. The flat array must have exactly the product of
 * the extents as its length; generated kernels check it.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface Shape {
  String value();
}
