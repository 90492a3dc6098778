package dev.kiln;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * An {@code int} parameter that is a size: a symbol that {@link Shape}s and {@link Parallel} loop
 * bounds refer to. Sizes are symbolic at build time and bound when the kernel runs.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface Dim {}
