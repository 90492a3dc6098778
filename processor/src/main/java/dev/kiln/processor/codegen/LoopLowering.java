package dev.kiln.processor.codegen;

import dev.kiln.processor.ir.Stmt;

/**
 * Another way to emit a worker's sequential loop (the CPU's SIMD loops): given each loop before
 * {@link BodyEmitter} emits it, it either writes the loop itself, through the emitter's current
 * scope, binding the loop's results, and says so, or declines and the emitter writes the plain
 * loop.
 */
public interface LoopLowering {
  /** Whether {@code loop} was written. */
  boolean lower(Stmt.Loop loop, BodyEmitter emitter);
}
