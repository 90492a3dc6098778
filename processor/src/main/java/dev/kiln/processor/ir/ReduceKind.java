package dev.kiln.processor.ir;

/** The associative operators of {@code @Reduce} outputs; names match the runtime's {@code ReduceOp}. */
public enum ReduceKind {
  SUM("+"),
  PRODUCT("*"),
  MAX("max"),
  MIN("min");

  private final String symbol;

  ReduceKind(String symbol) {
    this.symbol = symbol;
  }

  public String symbol() {
    return symbol;
  }
}
