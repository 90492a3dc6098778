package dev.kiln.processor.ir.io;

/**
 * Kiln IR text that cannot be read: its line number (1-based) and a plain message saying what was
 * expected there. {@link #getMessage()} reads {@code line 7: ...}.
 */
public class IrFormatException extends Exception {
  private static final long serialVersionUID = 1L;

  private final int line;
  private final String problem;

  public IrFormatException(int line, String problem) {
    super("line " + line + ": " + problem);
    this.line = line;
    this.problem = problem;
  }

  /** The 1-based line the problem is on. */
  public int line() {
    return line;
  }

  /** The message without the line number. */
  public String problem() {
    return problem;
  }
}
