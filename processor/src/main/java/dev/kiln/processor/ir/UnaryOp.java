package dev.kiln.processor.ir;

/** Unary operators. */
public enum UnaryOp {
  NEG("neg", "-"),
  NOT("not", "!"),
  BIT_NOT("bitnot", "~");

  private final String irName;
  private final String javaSymbol;

  UnaryOp(String irName, String javaSymbol) {
    this.irName = irName;
    this.javaSymbol = javaSymbol;
  }

  public String irName() {
    return irName;
  }

  public String javaSymbol() {
    return javaSymbol;
  }
}
