package dev.kiln.processor.ir.io;

import dev.kiln.processor.ir.ScalarType;
import java.util.Locale;

/** Reads the tokens of one {@link IrSyntax.Line} in order, saying plainly what it expected. */
final class Cursor {
  private final IrSyntax.Line line;
  private int next;

  Cursor(IrSyntax.Line line) {
    this.line = line;
  }

  int lineNumber() {
    return line.number();
  }

  IrFormatException error(String problem) {
    return new IrFormatException(line.number(), problem);
  }

  boolean atEnd() {
    return next >= line.tokens().size();
  }

  /** The next token without taking it, or null at the end of the line. */
  IrSyntax.Token peek() {
    return atEnd() ? null : line.tokens().get(next);
  }

  private IrSyntax.Token take(String what) throws IrFormatException {
    if (atEnd()) {
      throw error("the line ends where " + what + " was expected");
    }
    return line.tokens().get(next++);
  }

  /** A bare word or a quoted string. */
  String text(String what) throws IrFormatException {
    IrSyntax.Token t = take(what);
    if (t.list()) {
      throw error("expected " + what + ", found a list [" + t.text() + "]");
    }
    return t.text();
  }

  /** A bare word. */
  String word(String what) throws IrFormatException {
    IrSyntax.Token t = take(what);
    if (t.list() || t.quoted()) {
      throw error("expected " + what + ", found " + shown(t));
    }
    return t.text();
  }

  /** The contents of a bracketed list. */
  String list(String what) throws IrFormatException {
    IrSyntax.Token t = take(what);
    if (!t.list()) {
      throw error("expected " + what + " in brackets, found " + shown(t));
    }
    return t.text();
  }

  void keyword(String expected) throws IrFormatException {
    String w = word("'" + expected + "'");
    if (!w.equals(expected)) {
      throw error("expected '" + expected + "', found '" + w + "'");
    }
  }

  long integer(String what) throws IrFormatException {
    String w = word(what);
    try {
      return Long.parseLong(w);
    } catch (NumberFormatException e) {
      throw error("expected " + what + " (an integer), found '" + w + "'");
    }
  }

  int smallInteger(String what) throws IrFormatException {
    long v = integer(what);
    if (v != (int) v) {
      throw error(what + " " + v + " is out of range");
    }
    return (int) v;
  }

  ScalarType type() throws IrFormatException {
    String w = word("a type (bool, i32, i64, f32, f64)");
    for (ScalarType t : ScalarType.values()) {
      if (t.irName().equals(w)) {
        return t;
      }
    }
    throw error("unknown type '" + w + "'; types are bool, i32, i64, f32 and f64");
  }

  /** A constant of an enum, written in lower case. */
  <E extends Enum<E>> E choice(Class<E> type, String what) throws IrFormatException {
    String w = word(what);
    for (E e : type.getEnumConstants()) {
      if (e.name().toLowerCase(Locale.ROOT).equals(w)) {
        return e;
      }
    }
    throw error("unknown " + what + " '" + w + "'");
  }

  void end() throws IrFormatException {
    if (!atEnd()) {
      throw error("unexpected " + shown(peek()) + " at the end of the line");
    }
  }

  private static String shown(IrSyntax.Token t) {
    return t.list() ? "[" + t.text() + "]" : t.quoted() ? IrSyntax.quote(t.text()) : "'" + t.text() + "'";
  }
}
