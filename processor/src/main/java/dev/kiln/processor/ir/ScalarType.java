package dev.kiln.processor.ir;

/** The scalar types of the DSL. Arrays hold {@code FLOAT}, {@code DOUBLE}, {@code INT}, {@code LONG}, {@code SHORT} or {@code BYTE}
 * (the last two only as array elements: a load promotes them to {@code INT}, a store narrows). */
public enum ScalarType {
  BOOL("boolean", "bool"),
  BYTE("byte", "i8"),
  SHORT("short", "i16"),
  INT("int", "i32"),
  LONG("long", "i64"),
  FLOAT("float", "f32"),
  DOUBLE("double", "f64");

  private final String javaName;
  private final String irName;

  ScalarType(String javaName, String irName) {
    this.javaName = javaName;
    this.irName = irName;
  }

  public String javaName() {
    return javaName;
  }

  public String irName() {
    return irName;
  }

  /** Bytes of one element of this type in an array ({@code BOOL}: one, as Java stores it). */
  public int bytes() {
    return switch (this) {
      case DOUBLE, LONG -> 8;
      case FLOAT, INT -> 4;
      case SHORT -> 2;
      case BYTE, BOOL -> 1;
    };
  }

  public boolean isFloating() {
    return this == FLOAT || this == DOUBLE;
  }

  public boolean isIntegral() {
    return this == BYTE || this == SHORT || this == INT || this == LONG;
  }

  /** A type Java promotes to {@code int} before any arithmetic: {@code byte} and {@code short} (array elements only). */
  public boolean isNarrow() {
    return this == BYTE || this == SHORT;
  }

  public boolean isNumeric() {
    return this != BOOL;
  }

  /** Whether a value of this type converts to {@code to} by Java's widening primitive conversion. */
  public boolean widensTo(ScalarType to) {
    return this == to || (isNumeric() && to.isNumeric() && ordinal() <= to.ordinal());
  }

  /** Java's binary numeric promotion. */
  public static ScalarType promote(ScalarType a, ScalarType b) {
    ScalarType wider = a.ordinal() >= b.ordinal() ? a : b;
    return wider.ordinal() < INT.ordinal() ? INT : wider;
  }

  /** The type named by a Java primitive keyword, or null. */
  public static ScalarType ofJavaName(String name) {
    for (ScalarType t : values()) {
      if (t.javaName.equals(name)) {
        return t;
      }
    }
    return null;
  }
}
