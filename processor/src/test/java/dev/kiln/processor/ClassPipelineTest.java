package dev.kiln.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.List;
import java.util.Locale;
import javax.tools.Diagnostic;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.Test;

/** The processor's named passes: their order, and {@code -Akiln.dumpIr} printing the IR after them. */
class ClassPipelineTest {
  @Test
  void thePassesRunInTheirOrder() {
    assertThat(List.of(ClassPipeline.Pass.values()).stream().map(ClassPipeline.Pass::id).toList())
        .containsExactly("lower", "check", "fuse", "differentiate", "shard", "contract", "plan", "emit").inOrder();
  }

  @Test
  void dumpIrPrintsTheCompositeBeforeFusionAndItsKernelAfter() throws Exception {
    Compilation c = javac().withProcessors(new KilnProcessor())
        .withOptions("-Akiln.nvcc=off", "-Akiln.dumpIr=lower,fuse")
        .compile(JavaFileObjects.forResource("fusion/Ovl.java"));
    assertThat(c).succeeded();
    List<String> notes = c.notes().stream().map(d -> d.getMessage(Locale.ROOT))
        .filter(m -> m.startsWith("[KILN051]")).toList();
    assertThat(notes).hasSize(2);
    assertThat(notes.get(0)).startsWith("[KILN051] the IR of fusion.Ovl after the lower pass (-Akiln.dumpIr):");
    assertThat(notes.get(0)).contains("composite ovl(N, in x[2*N], in y[N], out out[2*N])");
    assertThat(notes.get(0)).doesNotContain("fused into");
    assertThat(notes.get(1)).startsWith("[KILN051] the IR of fusion.Ovl after the fuse pass (-Akiln.dumpIr):");
    assertThat(notes.get(1)).contains("fused into 1 kernel");
    assertThat(notes.get(1)).contains("# kernel ovl_k0 fuses split2#1, add#1, add#2, mul#1, concat2#1");
  }

  @Test
  void theLastPassesDumpIsTheIrListing() throws Exception {
    Compilation c = javac().withProcessors(new KilnProcessor())
        .withOptions("-Akiln.nvcc=off", "-Akiln.dumpIr=emit")
        .compile(JavaFileObjects.forResource("fusion/Ovl.java"));
    assertThat(c).succeeded();
    String listing = c.generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/kiln/fusion/Ovl.ir.txt").orElseThrow()
        .getCharContent(true).toString();
    String note = c.notes().stream().map(d -> d.getMessage(Locale.ROOT)).filter(m -> m.startsWith("[KILN051]"))
        .findFirst().orElseThrow();
    // line by line, each stripped: javac indents a message's later lines
    List<String> noteLines = note.lines().skip(1).map(String::strip).toList();
    List<String> listingLines = listing.strip().lines().map(String::strip).toList();
    assertThat(noteLines).isEqualTo(listingLines);
  }

  @Test
  void anUnknownPassIsAWarningNamingThePasses() {
    Compilation c = javac().withProcessors(new KilnProcessor())
        .withOptions("-Akiln.nvcc=off", "-Akiln.dumpIr=fusion")
        .compile(JavaFileObjects.forResource("fusion/Ovl.java"));
    assertThat(c).succeeded();
    assertThat(c).hadWarningContaining("[KILN052] -Akiln.dumpIr=fusion: 'fusion' is not a pass; the passes are lower,"
        + " check, fuse, differentiate, shard, contract, plan, emit (or all); the option is ignored");
    assertThat(c.notes().stream().noneMatch(d -> d.getMessage(Locale.ROOT).startsWith("[KILN051]"))).isTrue();
    assertThat(c.diagnostics().stream().filter(d -> d.getKind() == Diagnostic.Kind.WARNING).count()).isEqualTo(1);
  }
}
