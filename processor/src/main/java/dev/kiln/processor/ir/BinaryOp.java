package dev.kiln.processor.ir;

/** Binary operators with their Java spelling. */
public enum BinaryOp {
  ADD("add", "+", false),
  SUB("sub", "-", false),
  MUL("mul", "*", false),
  DIV("div", "/", false),
  REM("rem", "%", false),
  AND("and", "&", false),
  OR("or", "|", false),
  XOR("xor", "^", false),
  SHL("shl", "<<", false),
  SHR("shr", ">>", false),
  USHR("ushr", ">>>", false),
  LT("lt", "<", true),
  LE("le", "<=", true),
  GT("gt", ">", true),
  GE("ge", ">=", true),
  EQ("eq", "==", true),
  NE("ne", "!=", true),
  /** Logical and of booleans; both sides are pure, so no short circuit is needed. */
  LAND("land", "&&", false),
  LOR("lor", "||", false);

  private final String irName;
  private final String javaSymbol;
  private final boolean comparison;

  BinaryOp(String irName, String javaSymbol, boolean comparison) {
    this.irName = irName;
    this.javaSymbol = javaSymbol;
    this.comparison = comparison;
  }

  public String irName() {
    return irName;
  }

  public String javaSymbol() {
    return javaSymbol;
  }

  public boolean isComparison() {
    return comparison;
  }

  public boolean isShift() {
    return this == SHL || this == SHR || this == USHR;
  }

  public boolean isCommutative() {
    return this == ADD || this == MUL || this == AND || this == OR || this == XOR || this == EQ
        || this == NE || this == LAND || this == LOR;
  }
}
