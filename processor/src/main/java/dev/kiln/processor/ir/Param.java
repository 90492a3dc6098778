package dev.kiln.processor.ir;

/** A parameter of an operator, in declaration order. */
public sealed interface Param permits Param.Scalar, Param.Array {
  String name();

  int position();

  /**
   * A scalar parameter.
   *
   * @param dim whether it is a {@code @Dim} size
   */
  record Scalar(String name, int position, ScalarType type, boolean dim) implements Param {}

  /** An array parameter with its shape and role. */
  record Array(String name, int position, ScalarType elementType, Shape shape, ArrayRole role)
      implements Param {
    @Override
    public String toString() {
      return name;
    }
  }
}
