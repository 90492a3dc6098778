package dev.kiln.processor.ir;

/** How an operator uses an array parameter. */
public enum ArrayRole {
  /** Read only. */
  IN("in"),
  /** Written, each element by at most one worker. */
  OUT("out"),
  /** Accumulated into with an associative operator; see {@link ReduceKind}. */
  REDUCE("reduce");

  private final String text;

  ArrayRole(String text) {
    this.text = text;
  }

  public String text() {
    return text;
  }
}
