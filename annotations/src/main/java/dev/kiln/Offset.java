package dev.kiln;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * An {@code int} parameter holding the global index of the first element along the {@link Dim}
 * named by {@link #value}: 0 when the operator runs on all of it, the first row of the shard when
 * a sharded runner (Kiln's Spark runner) gives the operator a slice of that dimension. Add it to the
 * worker's index where a value must depend on the global position ({@code KRandom.uniform(seed, 0,
 * (row0 + b) * N + k)}), so that the values are the same under any split of the work.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface Offset {
  /** The name of the {@code @Dim} parameter this offsets. */
  String value();
}
