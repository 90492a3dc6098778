package dev.kiln.processor.ir;

/** How an operator uses an array parameter. */
public enum ArrayRole {
  /** Read only. */
  IN("in"),
  /** Written, each element by at most one worker. */
  OUT("out"),
  /** Accumulated into with an associative operator; see {@link ReduceKind}. */
  REDUCE("reduce"),
  /**
   * Not a parameter: an array each worker keeps for itself (written and read back by that worker
   * only), allocated by the kernel and indexed by the worker's own part of the index.
   */
  SCRATCH("scratch");

  private final String text;

  ArrayRole(String text) {
    this.text = text;
  }

  public String text() {
    return text;
  }
}
