package dev.kiln.tests;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Pattern;
import org.junit.jupiter.api.function.Executable;

/** Assertions about the argument checks that generated launchers run before any work. */
public final class Errors {
  private Errors() {}

  /**
   * {@code call} must throw an {@link IllegalArgumentException} whose message names {@code
   * operator} and {@code argument}, each as a whole word (so a check that names argument {@code x}
   * is not satisfied by the {@code x} inside {@code max}).
   */
  public static IllegalArgumentException assertRejects(
      String operator, String argument, Executable call) {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            call,
            () ->
                operator + " should reject a bad '" + argument + "' with IllegalArgumentException");
    String message = e.getMessage();
    assertNotNull(message, "the exception has no message");
    assertTrue(
        mentions(message, operator),
        () -> "message does not name the operator " + operator + ": " + message);
    assertTrue(
        mentions(message, argument),
        () -> "message does not name the argument " + argument + ": " + message);
    return e;
  }

  /** Whether {@code text} contains {@code word} not adjoined by identifier characters. */
  public static boolean mentions(String text, String word) {
    return Pattern.compile("(?<![\\p{Alnum}_$])" + Pattern.quote(word) + "(?![\\p{Alnum}_$])")
        .matcher(text)
        .find();
  }
}
