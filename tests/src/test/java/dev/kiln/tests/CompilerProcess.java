package dev.kiln.tests;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A compiler run in a process of its own on one small operator class (in this JVM, a compiler's
 * processor loader would find the test class path's Kiln first): for {@link PlainJavacTest} and
 * {@link EclipseCompilerTest}.
 */
final class CompilerProcess {
  /** {@code demo.Ops}: one grid operator. */
  static final String SOURCE = String.join("\n",
      "package demo;",
      "",
      "import dev.kiln.Dim;",
      "import dev.kiln.Operator;",
      "import dev.kiln.Out;",
      "import dev.kiln.Parallel;",
      "import dev.kiln.Shape;",
      "",
      "public final class Ops {",
      "  private Ops() {}",
      "",
      "  @Operator",
      "  public static void scale(@Dim int N, @Shape(\"N\") float[] x, float a, @Out @Shape(\"N\") float[] y) {",
      "    for (@Parallel int i = 0; i < N; i++) {",
      "      y[i] = a * x[i];",
      "    }",
      "  }",
      "}",
      "");

  /** What the compiler said, and its exit status. */
  record Result(int status, String output) {}

  private CompilerProcess() {}

  /** Writes {@link #SOURCE} under {@code dir} and returns its path. */
  static Path writeSource(Path dir) throws IOException {
    Path source = dir.resolve("src/demo/Ops.java");
    Files.createDirectories(source.getParent());
    Files.writeString(source, SOURCE, StandardCharsets.UTF_8);
    return source;
  }

  /** Runs {@code command} to its end, standard error merged into standard output. */
  static Result run(List<String> command) throws IOException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    try {
      return new Result(process.waitFor(), text);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }
}
