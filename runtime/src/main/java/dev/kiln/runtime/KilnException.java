package dev.kiln.runtime;

/** A failure of the Kiln runtime that is not the caller's argument error: a device, a launch. */
public class KilnException extends RuntimeException {
  public KilnException(String message) {
    super(message);
  }

  public KilnException(String message, Throwable cause) {
    super(message, cause);
  }
}
