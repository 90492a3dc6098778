package dev.kiln.processor.fusion;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import dev.kiln.processor.KilnProcessor;
import java.io.IOException;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.Test;

/** Every kernel after a composite's first says why its first call did not join the kernel before it. */
class SplitReasonsTest {
  @Test
  void theListingAndTheReportGiveTheReason() throws IOException {
    Compilation c = javac().withProcessors(new KilnProcessor()).withOptions("-Akiln.nvcc=off")
        .compile(JavaFileObjects.forResource("fusion/Splits.java"));
    assertThat(c).succeeded();
    String ir = c.generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/kiln/fusion/Splits.ir.txt").orElseThrow()
        .getCharContent(true).toString();
    assertThat(ir).contains("fused into 2 kernels");
    assertThat(ir).contains("  kernel both_k1 starts at twice#1: it did not join the kernel before, twice#1 reads nothing the kernel before computes, and joining it would make its grid dimensions sequential loops");
    String json = c.generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/kiln/fusion/Splits.fusion.json").orElseThrow()
        .getCharContent(true).toString();
    assertThat(json).contains("\"split\"");
    assertThat(json).contains("twice#1 did not join the kernel before: twice#1 reads nothing the kernel before computes");
    String html = c.generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/kiln/fusion/Splits.fusion.html").orElseThrow()
        .getCharContent(true).toString();
    assertThat(html).contains("both_k1 starts a new kernel: twice#1 did not join the kernel before: twice#1 reads nothing the kernel before computes");
  }
}
