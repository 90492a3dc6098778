package dev.kiln;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a static method as a Kiln operator. Its body is plain Java that the JVM runs as the
 * reference; Kiln's annotation processor compiles the same body into CPU (and CUDA) kernels in
 * the generated class {@code <EnclosingClass>Kernels}.
 *
 * <p>Two kinds of body are compiled today:
 *
 * <ul>
 *   <li><b>elementwise</b>: scalar parameters, a scalar return value. Kiln inlines it into callers
 *       and generates a launcher that maps it over arrays;
 *   <li><b>grid</b>: {@code void}, {@link Dim} sizes, {@link Shape}d arrays, perfectly nested
 *       {@link Parallel} loops whose body is the code of one worker; {@link Out} arrays are
 *       written, {@link Reduce} arrays are accumulated.
 * </ul>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Operator {}
