package dev.kiln;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the variable of a {@code for} loop as a dimension of the worker grid: {@code for
 * (@Parallel int i = 0; i < N; i++)} where {@code N} is a {@link Dim}. Perfectly nested parallel
 * loops form the grid; the innermost loop's body is the code of one worker.
 */
@Documented
@Retention(RetentionPolicy.SOURCE)
@Target(ElementType.LOCAL_VARIABLE)
public @interface Parallel {}
