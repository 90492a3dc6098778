package dev.kiln.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The processor's self-contained jar ({@code kiln-processor-<version>-all.jar}: the processor, the
 * annotations, the CUDA headers and JavaPoet relocated) is a processor path of its own for plain
 * {@code javac}, which otherwise stopped with {@code NoClassDefFoundError:
 * com/palantir/javapoet/ClassName}: it compiles an operator class and writes its kernels.
 */
class PlainJavacTest {
  private static final String SOURCE = String.join("\n",
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

  @Test
  void theAllJarAloneIsJavacsProcessorPath(@TempDir Path dir) throws IOException {
    String jar = System.getProperty("kiln.processor.all");
    assertNotNull(jar, "-Dkiln.processor.all (set in tests/pom.xml) names the processor's -all jar");
    assertTrue(Files.isRegularFile(Path.of(jar)), jar + " is missing: package the processor module first");
    Path source = dir.resolve("src/demo/Ops.java");
    Files.createDirectories(source.getParent());
    Files.writeString(source, SOURCE, StandardCharsets.UTF_8);
    Path out = Files.createDirectories(dir.resolve("out"));
    // a javac process of its own: in this JVM, javac's processor loader would find the test class
    // path's Kiln first
    Path javac = Path.of(System.getProperty("java.home"), "bin", "javac");
    assertTrue(Files.isExecutable(javac), javac + ": the tests need a JDK");
    Process process = new ProcessBuilder(javac.toString(), "-processorpath", jar, "-cp",
        System.getProperty("java.class.path"), "-Akiln.nvcc=off", "-d", out.toString(), source.toString())
        .redirectErrorStream(true).start();
    String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    int status;
    try {
      status = process.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
    assertEquals(0, status, text);
    assertTrue(Files.isRegularFile(out.resolve("demo/OpsKernels.class")), "no kernels class; javac said: " + text);
    assertTrue(Files.isRegularFile(out.resolve("META-INF/kiln/demo/Ops.cu")), "no .cu; javac said: " + text);
  }
}
