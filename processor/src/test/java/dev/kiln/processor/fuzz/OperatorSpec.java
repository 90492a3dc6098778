package dev.kiln.processor.fuzz;

import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/** What the harness needs to know about a generated operator to call it and its kernel. */
sealed interface OperatorSpec permits OperatorSpec.Elementwise, OperatorSpec.Grid {
  String name();

  /** An elementwise operator: scalar parameters, a scalar result. */
  record Elementwise(String name, FuzzType result, List<String> paramNames, List<FuzzType> paramTypes)
      implements OperatorSpec {
    /** Whether Kiln generates map launchers for it (every type float, double or int). */
    boolean mappable() {
      return !paramTypes.isEmpty() && mappable(result) && paramTypes.stream().allMatch(Elementwise::mappable);
    }

    private static boolean mappable(FuzzType t) {
      return t == FuzzType.FLOAT || t == FuzzType.DOUBLE || t == FuzzType.INT;
    }
  }

  /**
   * A grid operator, the sizes to run it with and a bound on the worker-steps each size set runs
   * (the most terms one reduced element can have), and the name of its plain "twin" (the same
   * loops with every float {@code +=} reduction term replaced by its absolute value, which bounds
   * the rounding error of a reordered sum), or null when it has no float sum; {@code workAt} gives
   * the worker-steps at any sizes (for composites that call it).
   */
  record Grid(String name, List<Param> params, List<Map<String, Integer>> sizes, List<Long> work, String absTwin,
      ToLongFunction<Map<String, Integer>> workAt) implements OperatorSpec {}

  /** A parameter of a grid operator. */
  sealed interface Param permits Dim, Scalar, Array {
    String name();
  }

  /** The Java type of a parameter in the generated method's signature. */
  static Class<?> javaType(Param p) {
    if (p instanceof Dim) {
      return int.class;
    }
    if (p instanceof Scalar s) {
      return s.type().primitive();
    }
    return ((Array) p).element().array();
  }

  record Dim(String name) implements Param {}

  record Scalar(String name, FuzzType type) implements Param {}

  /** An array parameter; {@code reduce} is null unless the role is {@code REDUCE}. */
  record Array(String name, FuzzType element, List<Extent> shape, Role role, ReduceKind reduce)
      implements Param {
    long length(Map<String, Integer> sizes) {
      long n = 1;
      for (Extent e : shape) {
        n *= e.size(sizes);
      }
      return n;
    }

    String shapeText() {
      StringBuilder b = new StringBuilder();
      for (Extent e : shape) {
        b.append(b.length() == 0 ? "" : ", ").append(e.text());
      }
      return b.toString();
    }
  }

  enum Role { IN, OUT, REDUCE }

  enum ReduceKind { SUM, PRODUCT, MAX, MIN }
}
