package dev.kiln.processor.frontend;

import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ScalarType;

/**
 * A local variable during lowering: its declared type and current SSA value (null before the
 * first assignment). {@code readOnlyReason} is set for loop variables, which the body may not
 * assign.
 */
record Local(ScalarType type, Expr value, String readOnlyReason) {
  Local with(Expr newValue) {
    return new Local(type, newValue, readOnlyReason);
  }
}
