package dev.kiln.processor.ir.io;

import dev.kiln.processor.ir.Poly;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Polynomials and shapes' extents as IR text: {@code 4*H + 1}, {@code -N + 2}, {@code B*H},
 * {@code 0} (the form {@link Poly#toString()} prints), and lists of them {@code [B, 4*H]}.
 */
final class PolyText {
  private PolyText() {}

  static String write(Poly p) {
    if (p.isZero()) {
      return "0";
    }
    StringBuilder b = new StringBuilder();
    for (Map.Entry<List<String>, Long> t : p.terms().entrySet()) {
      long c = t.getValue();
      if (b.length() > 0) {
        boolean minus = c < 0 && c != Long.MIN_VALUE;
        b.append(minus ? " - " : " + ");
        c = minus ? -c : c;
      }
      if (t.getKey().isEmpty()) {
        b.append(c);
      } else {
        b.append(c == 1 ? "" : c == -1 ? "-" : c + "*").append(String.join("*", t.getKey()));
      }
    }
    return b.toString();
  }

  static String writeList(List<Poly> polys) {
    List<String> parts = new ArrayList<>();
    polys.forEach(p -> parts.add(write(p)));
    return "[" + String.join(", ", parts) + "]";
  }

  static List<Poly> parseList(String text, Cursor at) throws IrFormatException {
    List<Poly> out = new ArrayList<>();
    if (text.isBlank()) {
      return out;
    }
    for (String part : text.split(",", -1)) {
      out.add(parse(part.strip(), at));
    }
    return out;
  }

  static Poly parse(String text, Cursor at) throws IrFormatException {
    String[] parts = text.strip().split("\\s+");
    if (parts.length % 2 == 0 || parts[0].isEmpty()) {
      throw at.error("malformed polynomial '" + text + "'");
    }
    try {
      Poly sum = term(parts[0], text, at);
      for (int i = 1; i < parts.length; i += 2) {
        Poly t = term(parts[i + 1], text, at);
        switch (parts[i]) {
          case "+" -> sum = sum.add(t);
          case "-" -> sum = sum.subtract(t);
          default -> throw at.error("malformed polynomial '" + text + "': expected + or - before '" + parts[i + 1] + "'");
        }
      }
      return sum;
    } catch (ArithmeticException e) {
      throw at.error("a coefficient of '" + text + "' overflows a long");
    }
  }

  /** One term: {@code 3}, {@code -3}, {@code H}, {@code -H}, {@code 4*B*H}, {@code -4*H}. */
  private static Poly term(String s, String whole, Cursor at) throws IrFormatException {
    String[] factors = s.split("\\*", -1);
    Poly p;
    int first;
    if (isInteger(factors[0])) {
      try {
        p = Poly.constant(Long.parseLong(factors[0]));
      } catch (NumberFormatException e) {
        throw at.error("coefficient '" + factors[0] + "' in '" + whole + "' is out of range");
      }
      first = 1;
    } else if (factors[0].startsWith("-")) {
      p = Poly.constant(-1);
      factors[0] = factors[0].substring(1);
      first = 0;
    } else {
      p = Poly.ONE;
      first = 0;
    }
    for (int i = first; i < factors.length; i++) {
      if (!isSymbol(factors[i])) {
        throw at.error("malformed polynomial '" + whole + "': '" + factors[i] + "' is not a size name");
      }
      p = p.multiply(Poly.symbol(factors[i]));
    }
    return p;
  }

  private static boolean isInteger(String s) {
    return s.matches("-?\\d+");
  }

  private static boolean isSymbol(String s) {
    if (s.isEmpty() || !Character.isJavaIdentifierStart(s.codePointAt(0))) {
      return false;
    }
    return s.codePoints().allMatch(Character::isJavaIdentifierPart);
  }
}
