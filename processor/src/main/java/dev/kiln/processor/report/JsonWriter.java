package dev.kiln.processor.report;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * A small streaming JSON writer that pretty-prints with a two-space indent. Objects and arrays of
 * objects take one member per line; arrays of strings stay on one line. Strings are escaped per
 * RFC 8259: quote, backslash and every control character below U+0020 (as {@code \}{@code uXXXX});
 * a lone surrogate is written as its escape too, so the text encodes to UTF-8 without loss. Other
 * characters, non-ASCII included, are written as they are.
 */
final class JsonWriter {
  private final StringBuilder out = new StringBuilder();
  /** Per open container: whether it has an element yet. */
  private final Deque<boolean[]> open = new ArrayDeque<>();

  /** Opens the top-level object, or an object as the next element of the enclosing array. */
  JsonWriter beginObject() {
    element();
    return push('{');
  }

  JsonWriter beginObject(String name) {
    member(name);
    return push('{');
  }

  JsonWriter endObject() {
    return pop('}');
  }

  JsonWriter beginArray(String name) {
    member(name);
    return push('[');
  }

  JsonWriter endArray() {
    return pop(']');
  }

  JsonWriter field(String name, String value) {
    member(name);
    out.append(quote(value));
    return this;
  }

  JsonWriter field(String name, long value) {
    member(name);
    out.append(value);
    return this;
  }

  JsonWriter field(String name, boolean value) {
    member(name);
    out.append(value);
    return this;
  }

  /** A member whose value is an array of strings, written on one line. */
  JsonWriter field(String name, List<String> values) {
    member(name);
    out.append('[');
    for (int i = 0; i < values.size(); i++) {
      out.append(i == 0 ? "" : ", ").append(quote(values.get(i)));
    }
    out.append(']');
    return this;
  }

  /** The finished text, ending with a newline. */
  String finish() {
    if (!open.isEmpty()) {
      throw new IllegalStateException(open.size() + " JSON container(s) left open");
    }
    return out + "\n";
  }

  private void member(String name) {
    element();
    out.append(quote(name)).append(": ");
  }

  private void element() {
    if (open.isEmpty()) {
      if (out.length() > 0) {
        throw new IllegalStateException("a second top-level JSON value");
      }
      return;
    }
    boolean[] started = open.peek();
    out.append(started[0] ? ",\n" : "\n");
    started[0] = true;
    indent(open.size());
  }

  private JsonWriter push(char bracket) {
    out.append(bracket);
    open.push(new boolean[1]);
    return this;
  }

  private JsonWriter pop(char bracket) {
    if (open.isEmpty()) {
      throw new IllegalStateException("no JSON container to close with " + bracket);
    }
    if (open.pop()[0]) {
      out.append('\n');
      indent(open.size());
    }
    out.append(bracket);
    return this;
  }

  private void indent(int depth) {
    out.append("  ".repeat(depth));
  }

  /** {@code value} as a JSON string literal, or {@code null} for null. */
  static String quote(String value) {
    if (value == null) {
      return "null";
    }
    StringBuilder b = new StringBuilder(value.length() + 2).append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '"' || c == '\\') {
        b.append('\\').append(c);
      } else if (c < 0x20 || isLoneSurrogate(value, i)) {
        b.append(String.format("\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.append('"').toString();
  }

  private static boolean isLoneSurrogate(String s, int i) {
    char c = s.charAt(i);
    if (Character.isHighSurrogate(c)) {
      return i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1));
    }
    return Character.isLowSurrogate(c) && (i == 0 || !Character.isHighSurrogate(s.charAt(i - 1)));
  }
}
