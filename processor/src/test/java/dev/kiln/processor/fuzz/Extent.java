package dev.kiln.processor.fuzz;

import java.util.Map;

/**
 * One extent of a generated {@code @Shape}: a {@code @Dim} name ({@code N}), a halo ({@code N + 2}),
 * a doubled dimension ({@code 2 * N}) or an integer literal ({@code 3}). {@code text} is how the
 * generator spelled it in the source.
 */
record Extent(Kind kind, String dim, int literal, String text) {
  enum Kind { DIM, HALO, TWICE, LITERAL }

  static Extent dim(String name) {
    return new Extent(Kind.DIM, name, 0, name);
  }

  static Extent halo(String name, boolean dimFirst) {
    return new Extent(Kind.HALO, name, 0, dimFirst ? name + " + 2" : "2 + " + name);
  }

  static Extent twice(String name, boolean literalFirst) {
    return new Extent(Kind.TWICE, name, 0, literalFirst ? "2 * " + name : name + " * 2");
  }

  static Extent literal(int n) {
    return new Extent(Kind.LITERAL, null, n, Integer.toString(n));
  }

  /** The extent's value for the given sizes of the {@code @Dim}s. */
  long size(Map<String, Integer> sizes) {
    switch (kind) {
      case DIM: return sizes.get(dim);
      case HALO: return sizes.get(dim) + 2L;
      case TWICE: return 2L * sizes.get(dim);
      default: return literal;
    }
  }

  /** The extent as a factor in a Java index expression (parenthesised when composite). */
  String factor() {
    return kind == Kind.DIM || kind == Kind.LITERAL ? text : "(" + text + ")";
  }
}
