package dev.kiln.testing;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict JSON reader (RFC 8259) for the reports Kiln writes (fusion reports, shard plans), so the
 * test suites need no JSON library.
 * Objects become insertion-ordered {@code Map<String, Object>}, arrays {@code List<Object>},
 * numbers {@code Long} when they have no fraction or exponent and {@code Double} otherwise, and
 * {@code null} becomes {@link #NULL}. Anything else, trailing commas, duplicate keys, leading zeros,
 * unescaped control characters, comments and text after the value included, is an {@link
 * IllegalArgumentException} naming the offset.
 */
public final class Json {
  /** The JSON {@code null}: maps and lists hold no Java null. */
  public static final Object NULL = new Object() {
    @Override
    public String toString() {
      return "null";
    }
  };

  private final String text;
  private int pos;

  private Json(String text) {
    this.text = text;
  }

  public static Object parse(String text) {
    Json p = new Json(text);
    p.space();
    Object v = p.value();
    p.space();
    if (p.pos != text.length()) {
      throw p.error("text after the value");
    }
    return v;
  }

  private Object value() {
    if (pos >= text.length()) {
      throw error("a value expected, found the end");
    }
    char c = text.charAt(pos);
    switch (c) {
      case '{': return object();
      case '[': return array();
      case '"': return string();
      case 't': return word("true", Boolean.TRUE);
      case 'f': return word("false", Boolean.FALSE);
      case 'n': return word("null", NULL);
      default:
        if (c == '-' || c >= '0' && c <= '9') {
          return number();
        }
        throw error("unexpected '" + c + "'");
    }
  }

  private Map<String, Object> object() {
    expect('{');
    Map<String, Object> out = new LinkedHashMap<>();
    space();
    if (peek('}')) {
      pos++;
      return Collections.unmodifiableMap(out);
    }
    while (true) {
      space();
      if (!peek('"')) {
        throw error("a string key expected");
      }
      int at = pos;
      String key = string();
      space();
      expect(':');
      space();
      if (out.put(key, value()) != null) {
        pos = at;
        throw error("duplicate key \"" + key + "\"");
      }
      space();
      if (peek(',')) {
        pos++;
        continue;
      }
      expect('}');
      return Collections.unmodifiableMap(out);
    }
  }

  private List<Object> array() {
    expect('[');
    List<Object> out = new ArrayList<>();
    space();
    if (peek(']')) {
      pos++;
      return Collections.unmodifiableList(out);
    }
    while (true) {
      space();
      out.add(value());
      space();
      if (peek(',')) {
        pos++;
        continue;
      }
      expect(']');
      return Collections.unmodifiableList(out);
    }
  }

  private String string() {
    expect('"');
    StringBuilder b = new StringBuilder();
    while (true) {
      if (pos >= text.length()) {
        throw error("unterminated string");
      }
      char c = text.charAt(pos++);
      if (c == '"') {
        return b.toString();
      }
      if (c < 0x20) {
        pos--;
        throw error("unescaped control character in a string");
      }
      if (c != '\\') {
        b.append(c);
        continue;
      }
      if (pos >= text.length()) {
        throw error("unterminated escape");
      }
      char e = text.charAt(pos++);
      switch (e) {
        case '"': b.append('"'); break;
        case '\\': b.append('\\'); break;
        case '/': b.append('/'); break;
        case 'b': b.append('\b'); break;
        case 'f': b.append('\f'); break;
        case 'n': b.append('\n'); break;
        case 'r': b.append('\r'); break;
        case 't': b.append('\t'); break;
        case 'u': b.append(hex4()); break;
        default:
          pos--;
          throw error("bad escape '\\" + e + "'");
      }
    }
  }

  private char hex4() {
    if (pos + 4 > text.length()) {
      throw error("short \\u escape");
    }
    int v = 0;
    for (int i = 0; i < 4; i++) {
      int d = Character.digit(text.charAt(pos + i), 16);
      if (d < 0) {
        throw error("bad \\u escape");
      }
      v = v * 16 + d;
    }
    pos += 4;
    return (char) v;
  }

  private Object number() {
    int start = pos;
    boolean integral = true;
    if (peek('-')) {
      pos++;
    }
    if (peek('0')) {
      pos++;
      if (pos < text.length() && Character.isDigit(text.charAt(pos))) {
        throw error("leading zero");
      }
    } else {
      digits();
    }
    if (peek('.')) {
      pos++;
      integral = false;
      digits();
    }
    if (peek('e') || peek('E')) {
      pos++;
      integral = false;
      if (peek('+') || peek('-')) {
        pos++;
      }
      digits();
    }
    String s = text.substring(start, pos);
    if (integral) {
      try {
        return Long.parseLong(s);
      } catch (NumberFormatException tooLong) {
        return Double.parseDouble(s);
      }
    }
    return Double.parseDouble(s);
  }

  private void digits() {
    int start = pos;
    while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') {
      pos++;
    }
    if (pos == start) {
      throw error("a digit expected");
    }
  }

  private Object word(String w, Object v) {
    if (!text.startsWith(w, pos)) {
      throw error("unexpected text");
    }
    pos += w.length();
    return v;
  }

  private void space() {
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      pos++;
    }
  }

  private boolean peek(char c) {
    return pos < text.length() && text.charAt(pos) == c;
  }

  private void expect(char c) {
    if (!peek(c)) {
      throw error("'" + c + "' expected");
    }
    pos++;
  }

  private IllegalArgumentException error(String what) {
    int from = Math.max(0, pos - 20);
    int to = Math.min(text.length(), pos + 20);
    return new IllegalArgumentException("JSON: " + what + " at offset " + pos + " near \"" + text.substring(from, to) + "\"");
  }
}
