package dev.kiln;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the static, no-argument method of a record that returns the unit of its combining method:
 * the value {@code e} with {@code e.combine(x)} equal to {@code x} (and {@code x.combine(e)} too).
 * A {@code @Reduce} array of that record ({@code @Out @Reduce MeanVar[] s}, updated as {@code s[i] =
 * s[i].combine(e)}) needs one: Kiln starts each worker chunk's partial result at this value and
 * combines the partial results in a fixed tree. Its body builds the record from constants.
 *
 * <pre>{@code
 * record MeanVar(float n, float mean, float m2) {
 *   @Identity static MeanVar empty() { return new MeanVar(0f, 0f, 0f); }
 *   MeanVar combine(MeanVar o) { ... Chan's formula ... }
 * }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Identity {}
