package dev.kiln.processor.ir.analysis;

import dev.kiln.processor.ir.Poly;

/**
 * One term of an index, {@code coefficient * v} with {@code v} in {@code [0, extent)}:
 * {@code magnitude} is |coefficient| and {@code span} bounds |coefficient| * (extent - 1).
 *
 * @param distinguishes whether two workers that differ here must get different indices (a grid
 *     variable); other terms only vary inside one worker
 */
public record Term(String name, Poly magnitude, Poly span, boolean distinguishes) {}
