package dev.kiln.processor.ir;

/** One {@code @Parallel} loop: {@code for (var = 0; var < extent; var++)}. */
public record GridDim(Expr.Var var, Param.Scalar extent) {}
