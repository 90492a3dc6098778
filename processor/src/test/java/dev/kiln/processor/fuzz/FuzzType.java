package dev.kiln.processor.fuzz;

/** The scalar types the generator uses, with their Java spellings and reflection classes. */
enum FuzzType {
  FLOAT("float", float.class, float[].class),
  DOUBLE("double", double.class, double[].class),
  INT("int", int.class, int[].class),
  LONG("long", long.class, long[].class),
  BOOLEAN("boolean", boolean.class, boolean[].class);

  private final String javaName;
  private final Class<?> primitive;
  private final Class<?> array;

  FuzzType(String javaName, Class<?> primitive, Class<?> array) {
    this.javaName = javaName;
    this.primitive = primitive;
    this.array = array;
  }

  String javaName() {
    return javaName;
  }

  Class<?> primitive() {
    return primitive;
  }

  Class<?> array() {
    return array;
  }

  boolean isFloating() {
    return this == FLOAT || this == DOUBLE;
  }

  boolean isNumeric() {
    return this != BOOLEAN;
  }

  boolean isIntegral() {
    return this == INT || this == LONG;
  }

  /** The zero of this type as a Java literal. */
  String zero() {
    switch (this) {
      case FLOAT: return "0f";
      case DOUBLE: return "0.0";
      case INT: return "0";
      case LONG: return "0L";
      default: return "false";
    }
  }

  /** {@code value} (a small number) as a Java literal of this type. */
  String literal(double value) {
    switch (this) {
      case FLOAT: return value == (int) value ? (int) value + "f" : (float) value + "f";
      case DOUBLE: return value == (int) value ? (int) value + ".0" : Double.toString(value);
      case INT: return Integer.toString((int) value);
      case LONG: return (long) value + "L";
      default: return value != 0 ? "true" : "false";
    }
  }
}
