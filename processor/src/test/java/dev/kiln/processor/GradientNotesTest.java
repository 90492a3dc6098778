package dev.kiln.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * Operators Kiln compiles but cannot differentiate get note KILN043 on the construct that prevents
 * it, and no gradient launcher; the class still compiles. Each expected note is marked {@code //
 * note: KILN043 text} on its line of {@code gradients/NotDifferentiable.java}.
 */
class GradientNotesTest {
  private static final Pattern EXPECTED = Pattern.compile("// note: (KILN\\d{3})\\s*(.*)$");

  @Test
  void eachNoteIsOnItsLine() throws Exception {
    String resource = "gradients/NotDifferentiable.java";
    List<String> lines = Files.readAllLines(Paths.get(GradientNotesTest.class.getResource("/" + resource).toURI()));
    JavaFileObject source = JavaFileObjects.forResource(resource);
    Compilation compilation = javac().withProcessors(new KilnProcessor()).withOptions("-Akiln.nvcc=off").compile(source);
    assertThat(compilation).succeeded();
    int expected = 0;
    for (int i = 0; i < lines.size(); i++) {
      Matcher m = EXPECTED.matcher(lines.get(i));
      if (m.find()) {
        expected++;
        assertThat(compilation).hadNoteContaining("[" + m.group(1) + "]").inFile(source).onLine(i + 1);
        assertThat(compilation).hadNoteContaining(m.group(2).trim()).inFile(source).onLine(i + 1);
      }
    }
    List<String> notes = new ArrayList<>();
    for (Diagnostic<? extends JavaFileObject> d : compilation.notes()) {
      if (d.getMessage(null).contains("[KILN043]")) {
        notes.add(d.getMessage(null));
      }
    }
    assertThat(notes).hasSize(expected);
    String kernels = compilation.generatedSourceFile("gradients.NotDifferentiableKernels").orElseThrow()
        .getCharContent(true).toString();
    for (String op : List.of("prefix", "product", "pick", "lastAbove", "twice")) {
      assertThat(kernels).doesNotContain(" " + op + "Grad(");
    }
  }
}
