package dev.kiln.processor.report;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict RFC 8259 JSON reader for tests: objects become {@link LinkedHashMap}s (a duplicate key
 * is an error), arrays {@link List}s, integers {@link Long}s, other numbers {@link BigDecimal}s.
 * It refuses what lenient readers let through: trailing commas, raw control characters in
 * strings, unknown escapes, leading zeros, bare words, anything after the value.
 */
final class JsonReader {
  private final String text;
  private int at;

  private JsonReader(String text) {
    this.text = text;
  }

  static Object parse(String text) {
    JsonReader r = new JsonReader(text);
    r.space();
    Object value = r.value();
    r.space();
    if (r.at != text.length()) {
      throw r.error("text after the value");
    }
    return value;
  }

  private Object value() {
    char c = peek();
    switch (c) {
      case '{': return object();
      case '[': return array();
      case '"': return string();
      case 't': return word("true", Boolean.TRUE);
      case 'f': return word("false", Boolean.FALSE);
      case 'n': return word("null", null);
      default:
        if (c == '-' || (c >= '0' && c <= '9')) {
          return number();
        }
        throw error("unexpected '" + c + "'");
    }
  }

  private Map<String, Object> object() {
    Map<String, Object> map = new LinkedHashMap<>();
    expect('{');
    space();
    if (peek() == '}') {
      at++;
      return map;
    }
    while (true) {
      space();
      if (peek() != '"') {
        throw error("expected a member name");
      }
      String key = string();
      space();
      expect(':');
      space();
      if (map.containsKey(key)) {
        throw error("duplicate key " + key);
      }
      map.put(key, value());
      space();
      if (peek() == ',') {
        at++;
        continue;
      }
      expect('}');
      return map;
    }
  }

  private List<Object> array() {
    List<Object> list = new ArrayList<>();
    expect('[');
    space();
    if (peek() == ']') {
      at++;
      return list;
    }
    while (true) {
      space();
      list.add(value());
      space();
      if (peek() == ',') {
        at++;
        continue;
      }
      expect(']');
      return list;
    }
  }

  private String string() {
    expect('"');
    StringBuilder b = new StringBuilder();
    while (true) {
      char c = next();
      if (c == '"') {
        return b.toString();
      }
      if (c < 0x20) {
        throw error("raw control character U+" + Integer.toHexString(c) + " in a string");
      }
      if (c != '\\') {
        b.append(c);
        continue;
      }
      char e = next();
      switch (e) {
        case '"': case '\\': case '/': b.append(e); break;
        case 'b': b.append('\b'); break;
        case 'f': b.append('\f'); break;
        case 'n': b.append('\n'); break;
        case 'r': b.append('\r'); break;
        case 't': b.append('\t'); break;
        case 'u':
          if (at + 4 > text.length() || !text.substring(at, at + 4).matches("[0-9a-fA-F]{4}")) {
            throw error("bad \\u escape");
          }
          b.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
          at += 4;
          break;
        default:
          throw error("unknown escape \\" + e);
      }
    }
  }

  private Object number() {
    int start = at;
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?").matcher(text);
    if (!m.find(start) || m.start() != start) {
      throw error("bad number");
    }
    at = m.end();
    if (at < text.length() && Character.isDigit(text.charAt(at))) {
      throw error("leading zero");
    }
    String n = m.group();
    return m.group(2) == null && m.group(3) == null ? (Object) Long.parseLong(n) : new BigDecimal(n);
  }

  private Object word(String word, Object value) {
    if (!text.startsWith(word, at)) {
      throw error("bare word");
    }
    at += word.length();
    return value;
  }

  private void space() {
    while (at < text.length() && " \t\n\r".indexOf(text.charAt(at)) >= 0) {
      at++;
    }
  }

  private void expect(char c) {
    if (next() != c) {
      at--;
      throw error("expected '" + c + "'");
    }
  }

  private char peek() {
    if (at >= text.length()) {
      throw error("unexpected end");
    }
    return text.charAt(at);
  }

  private char next() {
    char c = peek();
    at++;
    return c;
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException(what + " at offset " + at);
  }
}
