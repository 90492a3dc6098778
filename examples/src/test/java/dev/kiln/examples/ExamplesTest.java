package dev.kiln.examples;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Each example runs to its end (each checks its own results and throws when they are wrong) and says what it should. */
class ExamplesTest {
  @Test
  void mapAndGradient() throws Exception {
    String out = run(() -> MapAndGradient.main(new String[0]));
    assertTrue(out.contains("kernel = plain Java, bit for bit"), out);
    assertTrue(out.contains("largest gap between gelu' and the central difference"), out);
  }

  @Test
  void fusedComposite() throws Exception {
    String out = run(() -> FusedComposite.main(new String[0]));
    assertTrue(out.contains("the fused kernel gives the plain Java's floats exactly"), out);
    assertTrue(out.contains("composite block(") && out.contains("fused into 1 kernel; temporaries allocated: none"), out);
  }

  @Test
  void trainingLoop() throws Exception {
    String out = run(() -> TrainingLoop.main(new String[0]));
    assertTrue(out.matches("(?s).*loss 0\\.6931 -> 0\\.[0-3][0-9]*; [0-9]+ of 512 samples classified right.*"), out);
  }

  @Test
  void lookup() throws Exception {
    String out = run(() -> Lookup.main(new String[0]));
    assertTrue(out.contains("rows = plain Java, bit for bit (twice)"), out);
    assertTrue(out.contains("an id outside the table") && out.contains("lookup"), out);
  }

  private interface Main {
    void run() throws Exception;
  }

  private static synchronized String run(Main main) throws Exception {
    PrintStream saved = System.out;
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    System.setOut(new PrintStream(text, true, StandardCharsets.UTF_8));
    try {
      main.run();
    } finally {
      System.setOut(saved);
    }
    String out = text.toString(StandardCharsets.UTF_8);
    saved.print(out);
    return out;
  }
}
