package dev.kiln.tests;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Eclipse's compiler (ECJ) runs annotation processors but has no javac Tree API, which Kiln reads
 * operator bodies with: the build fails with {@code KILN050} on the operator class, saying which
 * compilers work, instead of the "internal error ... a bug in Kiln" ({@code KILN999}) it gave.
 */
class EclipseCompilerTest {
  @Test
  void ecjGetsItsOwnDiagnosticNamingTheCompilersThatWork(@TempDir Path dir) throws IOException {
    String ecj = System.getProperty("kiln.ecj");
    String jar = System.getProperty("kiln.processor.all");
    assertNotNull(ecj, "-Dkiln.ecj (set in tests/pom.xml) names ECJ's jar");
    assertTrue(Files.isRegularFile(Path.of(ecj)), ecj + " is missing");
    assertTrue(Files.isRegularFile(Path.of(jar)), jar + " is missing: package the processor module first");
    Path source = CompilerProcess.writeSource(dir);
    Path out = Files.createDirectories(dir.resolve("out"));
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    CompilerProcess.Result r = CompilerProcess.run(List.of(java.toString(), "-jar", ecj, "-17",
        "-processorpath", jar, "-cp", jar, "-d", out.toString(), source.toString()));
    String text = r.output();
    assertNotEquals(0, r.status(), "ECJ must fail the build; it said: " + text);
    assertTrue(text.contains("[KILN050]"), text);
    assertTrue(text.contains("javac's Tree API") && text.contains("IntelliJ IDEA with its javac compiler")
        && text.contains("Eclipse's compiler (ECJ) is not supported"), text);
    assertTrue(text.contains("Ops.java"), "on the operator class: " + text);
    assertFalse(text.contains("KILN999") || text.contains("bug in Kiln"), text);
    assertFalse(Files.exists(out.resolve("demo/OpsKernels.class")), "no kernels without javac");
  }
}
