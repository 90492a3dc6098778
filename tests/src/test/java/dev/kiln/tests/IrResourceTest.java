package dev.kiln.tests;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The processor writes each class's IR as a classpath resource (its content is tested elsewhere).
 */
class IrResourceTest {
  @ParameterizedTest
  @ValueSource(
      strings = {
        "Activations",
        "Layout",
        "Linear",
        "Lstm",
        "Normalization",
        "Reductions",
        "Stencils"
      })
  void irResourceIsOnTheClasspath(String className) throws IOException {
    String path = "META-INF/kiln/dev/kiln/tests/ops/" + className + ".ir.txt";
    try (InputStream in = IrResourceTest.class.getClassLoader().getResourceAsStream(path)) {
      assertNotNull(in, path + " is missing");
      assertFalse(
          new String(in.readAllBytes(), StandardCharsets.UTF_8).isBlank(), path + " is empty");
    }
  }
}
