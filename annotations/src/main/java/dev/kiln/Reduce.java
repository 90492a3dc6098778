package dev.kiln;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * An {@link Out} array that workers accumulate into with an associative operator instead of
 * writing: {@code s[b] += e}, {@code p[0] *= e}, {@code m[0] = Math.max(m[0], e)}, {@code m[0] =
 * min(m[0], e)}. Several workers may update the same element; Kiln combines their contributions
 * with a parallel tree reduction and then folds the result into the element's initial value,
 * exactly as the plain-Java loop does (up to floating-point reassociation).
 *
 * <p>An array of records is a user monoid: {@code @Out @Reduce MeanVar[] s}, updated only as {@code
 * s[i] = s[i].combine(e)} (or {@code s[i] = MeanVar.combine(s[i], e)}) with a method that combines
 * two values of the record associatively, and a static {@link Identity} method giving its unit.
 * Workers' partial results are combined by that method in a fixed tree.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface Reduce {}
