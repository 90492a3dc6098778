package dev.kiln.processor.frontend;

import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.Shape;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Parses {@code @Shape} text: comma-separated extents built from {@code @Dim} names, integer
 * literals, {@code + - *} and parentheses.
 */
final class ShapeParser {
  /** A shape that could not be parsed, with the reason. */
  static final class ShapeException extends Exception {
    final boolean unknownDim;
    final String detail;

    ShapeException(String detail, boolean unknownDim) {
      super(detail, null, false, false);
      this.detail = detail;
      this.unknownDim = unknownDim;
    }
  }

  private final String text;
  private final Set<String> dims;
  private int pos;

  private ShapeParser(String text, Set<String> dims) {
    this.text = text;
    this.dims = dims;
  }

  /**
   * Parses {@code text} over {@code dims}.
   *
   * @throws ShapeException on malformed text, or naming the first unknown symbol
   */
  static Shape parse(String text, Set<String> dims) throws ShapeException {
    ShapeParser p = new ShapeParser(text, dims);
    List<Poly> extents = new ArrayList<>();
    p.skipSpace();
    if (p.pos == text.length()) {
      throw new ShapeException("it is empty", false);
    }
    extents.add(p.sum());
    while (p.peek() == ',') {
      p.pos++;
      extents.add(p.sum());
    }
    if (p.pos != text.length()) {
      throw new ShapeException("unexpected '" + text.charAt(p.pos) + "' at position " + (p.pos + 1), false);
    }
    return new Shape(text, extents);
  }

  private Poly sum() throws ShapeException {
    Poly p = product();
    for (char c = peek(); c == '+' || c == '-'; c = peek()) {
      pos++;
      Poly q = product();
      p = c == '+' ? p.add(q) : p.subtract(q);
    }
    return p;
  }

  private Poly product() throws ShapeException {
    Poly p = factor();
    while (peek() == '*') {
      pos++;
      p = p.multiply(factor());
    }
    return p;
  }

  private Poly factor() throws ShapeException {
    char c = peek();
    if (c == '(') {
      pos++;
      Poly p = sum();
      if (peek() != ')') {
        throw new ShapeException("missing ')'", false);
      }
      pos++;
      return p;
    }
    int start = pos;
    if (Character.isDigit(c)) {
      while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
        pos++;
      }
      try {
        return Poly.constant(Long.parseLong(text.substring(start, pos)));
      } catch (NumberFormatException e) {
        throw new ShapeException("the number " + text.substring(start, pos) + " is too large", false);
      }
    }
    if (Character.isJavaIdentifierStart(c)) {
      while (pos < text.length() && Character.isJavaIdentifierPart(text.charAt(pos))) {
        pos++;
      }
      String name = text.substring(start, pos);
      if (!dims.contains(name)) {
        throw new ShapeException(name, true);
      }
      return Poly.symbol(name);
    }
    throw new ShapeException(
        c == 0 ? "it ends where an extent is expected" : "unexpected '" + c + "' at position " + (pos + 1),
        false);
  }

  private char peek() {
    skipSpace();
    return pos < text.length() ? text.charAt(pos) : 0;
  }

  private void skipSpace() {
    while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
      pos++;
    }
  }

}
