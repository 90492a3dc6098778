package dev.kiln.tests.cuda;

import java.util.Map;

/** Evaluates {@code @Shape} text ("B, 4*H", "N + 2") for bound dims: the flat length. */
public final class ShapeEval {
  private final String text;
  private final Map<String, Integer> dims;
  private int pos;

  private ShapeEval(String text, Map<String, Integer> dims) {
    this.text = text.replace(" ", "");
    this.dims = dims;
  }

  public static int length(String shape, Map<String, Integer> dims) {
    ShapeEval e = new ShapeEval(shape, dims);
    long n = 1;
    for (String extent : e.text.split(",")) {
      n *= new ShapeEval(extent, dims).sum();
    }
    return Math.toIntExact(n);
  }

  private long sum() {
    long v = product();
    while (pos < text.length() && (text.charAt(pos) == '+' || text.charAt(pos) == '-')) {
      char op = text.charAt(pos++);
      long w = product();
      v = op == '+' ? v + w : v - w;
    }
    return v;
  }

  private long product() {
    long v = factor();
    while (pos < text.length() && text.charAt(pos) == '*') {
      pos++;
      v *= factor();
    }
    return v;
  }

  private long factor() {
    if (text.charAt(pos) == '(') {
      pos++;
      long v = sum();
      pos++;
      return v;
    }
    int start = pos;
    while (pos < text.length() && Character.isLetterOrDigit(text.charAt(pos))) {
      pos++;
    }
    String token = text.substring(start, pos);
    return Character.isDigit(token.charAt(0)) ? Long.parseLong(token) : dims.get(token);
  }
}
