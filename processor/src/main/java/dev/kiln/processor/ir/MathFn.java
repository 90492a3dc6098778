package dev.kiln.processor.ir;

/**
 * The math functions operator bodies may call: {@code dev.kiln.KMath} (float and double) and
 * {@code java.lang.Math}. A call node carries its result type, which says which overload it is.
 */
public enum MathFn {
  EXP(1, true),
  LOG(1, true),
  TANH(1, true),
  SIGMOID(1, true),
  SQRT(1, true),
  RSQRT(1, true),
  ABS(1, true),
  MIN(2, true),
  MAX(2, true),
  POW(2, true),
  ERF(1, true),
  SIN(1, true),
  COS(1, true),
  TAN(1, false),
  ASIN(1, false),
  ACOS(1, false),
  ATAN(1, false),
  ATAN2(2, false),
  SINH(1, false),
  COSH(1, false),
  LOG10(1, false),
  LOG1P(1, false),
  EXPM1(1, false),
  CBRT(1, false),
  FLOOR(1, false),
  CEIL(1, false),
  RINT(1, false),
  SIGNUM(1, false),
  HYPOT(2, false),
  FMA(3, false),
  /** {@code dev.kiln.KRandom.uniform(seed, stream, index)}: int arguments, a float in [0, 1). */
  UNIFORM(3, false),
  /** {@code dev.kiln.KRandom.normal(seed, stream, index)}: int arguments, a standard normal float. */
  NORMAL(3, false);

  private final int arity;
  private final boolean inKMath;

  MathFn(int arity, boolean inKMath) {
    this.arity = arity;
    this.inKMath = inKMath;
  }

  public int arity() {
    return arity;
  }

  /** Whether {@code dev.kiln.KMath} has it (with float and double overloads). */
  public boolean inKMath() {
    return inKMath;
  }

  /** The Java method name, as in {@code KMath} or {@code Math}. */
  public String javaName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  /** Whether {@code java.lang.Math} has it. */
  public boolean inJavaMath() {
    return this != SIGMOID && this != RSQRT && this != ERF && !random();
  }

  /** Whether it is {@code dev.kiln.KRandom}'s: integer arguments, a float value, no gradient. */
  public boolean random() {
    return this == UNIFORM || this == NORMAL;
  }

  public static MathFn byJavaName(String name) {
    for (MathFn f : values()) {
      if (f.javaName().equals(name)) {
        return f;
      }
    }
    return null;
  }
}
