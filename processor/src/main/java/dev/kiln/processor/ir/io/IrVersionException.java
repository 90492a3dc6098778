package dev.kiln.processor.ir.io;

/**
 * Kiln IR written in another version of the format than this Kiln reads: the library that holds it
 * was compiled by another Kiln and must be rebuilt with this one.
 */
public final class IrVersionException extends IrFormatException {
  private static final long serialVersionUID = 1L;

  private final int found;

  IrVersionException(int found) {
    super(1, "the IR is format version " + found + " (kiln-ir " + found + ") but this Kiln reads"
        + " version " + IrWriter.VERSION + " (" + IrWriter.HEADER + "): rebuild the library with"
        + " this Kiln" + KilnVersion.suffix());
    this.found = found;
  }

  /** The version the text declares. */
  public int found() {
    return found;
  }
}
