package dev.kiln.processor.fuzz;

import java.util.List;

/** Flat row-major index expressions, written the two ways people write them. */
final class IndexBuilder {
  private IndexBuilder() {}

  /**
   * The flat index of the element at {@code positions} (one Java int expression per extent) of an
   * array of {@code shape}: Horner form {@code (a * B + b) * C + c}, or expanded {@code a * B * C +
   * b * C + c}.
   */
  static String flat(List<Extent> shape, List<String> positions, boolean horner) {
    if (horner) {
      String acc = positions.get(0);
      for (int j = 1; j < shape.size(); j++) {
        acc = (j == 1 ? acc : "(" + acc + ")") + " * " + shape.get(j).factor() + " + " + positions.get(j);
      }
      return acc;
    }
    StringBuilder b = new StringBuilder();
    for (int j = 0; j < shape.size(); j++) {
      StringBuilder term = new StringBuilder(positions.get(j));
      for (int l = j + 1; l < shape.size(); l++) {
        term.append(" * ").append(shape.get(l).factor());
      }
      b.append(j == 0 ? "" : " + ").append(term);
    }
    return b.toString();
  }

  /** The product of the extents after position {@code m}: the stride of that position. */
  static String stride(List<Extent> shape, int m) {
    StringBuilder b = new StringBuilder();
    for (int l = m + 1; l < shape.size(); l++) {
      b.append(b.length() == 0 ? "" : " * ").append(shape.get(l).factor());
    }
    return b.length() == 0 ? "1" : b.toString();
  }
}
