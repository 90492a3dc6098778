package dev.kiln.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The processor's self-contained jar ({@code kiln-processor-<version>-all.jar}: the processor, the
 * annotations, the CUDA headers and JavaPoet relocated) is a processor path of its own for plain
 * {@code javac}, which otherwise stopped with {@code NoClassDefFoundError:
 * com/palantir/javapoet/ClassName}: it compiles an operator class and writes its kernels.
 */
class PlainJavacTest {
  @Test
  void theAllJarAloneIsJavacsProcessorPath(@TempDir Path dir) throws IOException {
    String jar = System.getProperty("kiln.processor.all");
    assertNotNull(jar, "-Dkiln.processor.all (set in tests/pom.xml) names the processor's -all jar");
    assertTrue(Files.isRegularFile(Path.of(jar)), jar + " is missing: package the processor module first");
    Path source = CompilerProcess.writeSource(dir);
    Path out = Files.createDirectories(dir.resolve("out"));
    Path javac = Path.of(System.getProperty("java.home"), "bin", "javac");
    assertTrue(Files.isExecutable(javac), javac + ": the tests need a JDK");
    CompilerProcess.Result r = CompilerProcess.run(List.of(javac.toString(), "-processorpath", jar, "-cp",
        System.getProperty("java.class.path"), "-Akiln.nvcc=off", "-d", out.toString(), source.toString()));
    int status = r.status();
    String text = r.output();
    assertEquals(0, status, text);
    assertTrue(Files.isRegularFile(out.resolve("demo/OpsKernels.class")), "no kernels class; javac said: " + text);
    assertTrue(Files.isRegularFile(out.resolve("META-INF/kiln/demo/Ops.cu")), "no .cu; javac said: " + text);
  }
}
