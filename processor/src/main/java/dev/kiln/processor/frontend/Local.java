package dev.kiln.processor.frontend;

import dev.kiln.processor.diag.Message;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ScalarType;

/**
 * A local variable during lowering: its declared type and current SSA value (null before the
 * first assignment). {@code readOnly} is set for locals the body may not assign (loop variables, the
 * prologue's locals inside the workers, a record's own components) and says which error an
 * assignment gets.
 */
record Local(ScalarType type, Expr value, ReadOnly readOnly) {
  Local with(Expr newValue) {
    return new Local(type, newValue, readOnly);
  }

  /** Why a local is read-only: the error an assignment gets, and its text for a wider message. */
  record ReadOnly(Message error, String reason) {
    /** A local of the grid's prologue, which every worker shares. */
    static ReadOnly shared(Object name) {
      return new ReadOnly(Message.SHARED_LOCAL, Message.SHARED_LOCAL.format(name));
    }

    /** A {@code @Parallel} loop's variable. */
    static ReadOnly parallelLoop(String name) {
      return new ReadOnly(Message.PARALLEL_LOOP_FORM, "@Parallel loop variable '" + name + "' is assigned in the body");
    }

    /** A sequential loop's variable. */
    static ReadOnly sequentialLoop(String name) {
      return new ReadOnly(Message.SEQUENTIAL_LOOP_FORM, "the loop variable '" + name + "' is assigned in the body");
    }

    /**
     * A component of the record whose method is being inlined. Assigning one by its own name cannot
     * be written in Java (a record's fields are final); the error is the one a read-only local
     * without a kind of its own always got.
     */
    static ReadOnly recordComponent() {
      return new ReadOnly(Message.SEQUENTIAL_LOOP_FORM, "the components of a record are final");
    }
  }
}
