package dev.kiln.processor.ir;

import java.util.List;

/**
 * The logical row-major shape of an array parameter: extents over {@code @Dim} symbols.
 *
 * @param text the shape as the user wrote it, for messages
 */
public record Shape(String text, List<Poly> extents) {
  public Shape {
    extents = List.copyOf(extents);
  }

  public int rank() {
    return extents.size();
  }

  /** The flat length, the product of the extents. */
  public Poly length() {
    Poly p = Poly.ONE;
    for (Poly e : extents) {
      p = p.multiply(e);
    }
    return p;
  }

  /** Whether the array's length is the constant {@code n} (not one that depends on a size). */
  public boolean hasLength(long n) {
    Poly length = length();
    return length.isConstant() && length.constantTerm() == n;
  }

  /** The row-major stride of dimension {@code k}: the product of the extents after it. */
  public Poly stride(int k) {
    Poly p = Poly.ONE;
    for (int i = k + 1; i < extents.size(); i++) {
      p = p.multiply(extents.get(i));
    }
    return p;
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < extents.size(); i++) {
      sb.append(i == 0 ? "" : ", ").append(extents.get(i));
    }
    return sb.append(']').toString();
  }
}
