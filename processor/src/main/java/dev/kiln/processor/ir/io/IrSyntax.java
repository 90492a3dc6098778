package dev.kiln.processor.ir.io;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The lexical layer of the IR text: a line is whitespace-separated tokens, where a token is a bare
 * word, a double-quoted string (Java escapes) or a bracketed list {@code [a, b + 1]}. Blank lines
 * and lines starting with {@code #} are comments.
 */
final class IrSyntax {
  private static final Pattern BARE = Pattern.compile("[^\\s\"\\[\\]#{}]+");

  private IrSyntax() {}

  /** A token; {@code quoted} tells a string apart from a bare word, {@code list} a bracketed list. */
  record Token(String text, boolean quoted, boolean list) {}

  /** One non-comment line: its 1-based number and tokens. */
  record Line(int number, List<Token> tokens) {}

  /** {@code s} as a bare word when it can be one, else quoted. */
  static String word(String s) {
    return BARE.matcher(s).matches() ? s : quote(s);
  }

  static String quote(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\t' -> b.append("\\t");
        case '\r' -> b.append("\\r");
        default -> {
          if (c < 0x20 || c == 0x7f) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.append('"').toString();
  }

  /** The lines of {@code text} after {@code skip} leading ones, comments and blank lines left out. */
  static List<Line> lines(List<String> physical, int skip) throws IrFormatException {
    List<Line> out = new ArrayList<>();
    for (int i = skip; i < physical.size(); i++) {
      String s = physical.get(i).strip();
      if (!s.isEmpty() && !s.startsWith("#")) {
        out.add(new Line(i + 1, tokens(s, i + 1)));
      }
    }
    return out;
  }

  private static List<Token> tokens(String s, int line) throws IrFormatException {
    List<Token> out = new ArrayList<>();
    int i = 0;
    while (i < s.length()) {
      char c = s.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
      } else if (c == '"') {
        StringBuilder b = new StringBuilder();
        i = quoted(s, i + 1, b, line);
        out.add(new Token(b.toString(), true, false));
      } else if (c == '[') {
        int end = s.indexOf(']', i);
        if (end < 0 || s.indexOf('[', i + 1) >= 0 && s.indexOf('[', i + 1) < end) {
          throw new IrFormatException(line, "a list opened with '[' is not closed with ']'");
        }
        out.add(new Token(s.substring(i + 1, end), false, true));
        i = end + 1;
      } else {
        int start = i;
        while (i < s.length() && !Character.isWhitespace(s.charAt(i)) && s.charAt(i) != '"'
            && s.charAt(i) != '[') {
          i++;
        }
        out.add(new Token(s.substring(start, i), false, false));
      }
    }
    return out;
  }

  /** Reads a quoted string's body from {@code i} into {@code b}; returns the index after it. */
  private static int quoted(String s, int i, StringBuilder b, int line) throws IrFormatException {
    while (i < s.length()) {
      char c = s.charAt(i++);
      if (c == '"') {
        return i;
      }
      if (c != '\\') {
        b.append(c);
        continue;
      }
      if (i >= s.length()) {
        break;
      }
      char e = s.charAt(i++);
      switch (e) {
        case 'n' -> b.append('\n');
        case 't' -> b.append('\t');
        case 'r' -> b.append('\r');
        case '"', '\\' -> b.append(e);
        case 'u' -> {
          if (i + 4 > s.length()) {
            throw new IrFormatException(line, "a \\u escape needs four hex digits");
          }
          try {
            b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
          } catch (NumberFormatException x) {
            throw new IrFormatException(line, "a \\u escape needs four hex digits");
          }
          i += 4;
        }
        default -> throw new IrFormatException(line, "unknown escape \\" + e + " in a string");
      }
    }
    throw new IrFormatException(line, "a string opened with '\"' is not closed");
  }
}
