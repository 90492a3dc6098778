package dev.kiln.processor.ir;

/** The kinds of operator body Kiln compiles. */
public enum OperatorKind {
  /** Scalar parameters, a scalar result. */
  ELEMENTWISE,
  /** {@code @Parallel} loops over {@code @Dim} sizes around one worker's code. */
  GRID,
  /** Straight-line calls of other operators; see {@link CompositeIr}. */
  COMPOSITE
}
