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
 * An unguarded affine access that is neither provably inside its array for every size nor
 * provably outside it for some worker at every size (KILN047) gets warning KILN049 on its line;
 * guarded and provably-inside accesses get none, and {@code @SuppressWarnings("KILN049")} silences
 * it. Each expected warning is marked {@code // warning: KILN049 text} in {@code
 * warnings/MaybeOutOfBounds.java}; the class compiles.
 */
class BoundsWarningsTest {
  private static final Pattern EXPECTED = Pattern.compile("// warning: (KILN\\d{3})\\s*(.*)$");

  @Test
  void eachWarningIsOnItsLineAndNoOther() throws Exception {
    String resource = "warnings/MaybeOutOfBounds.java";
    List<String> lines = Files.readAllLines(Paths.get(BoundsWarningsTest.class.getResource("/" + resource).toURI()));
    JavaFileObject source = JavaFileObjects.forResource(resource);
    Compilation compilation = javac().withProcessors(new KilnProcessor()).withOptions("-Akiln.nvcc=off").compile(source);
    assertThat(compilation).succeeded();
    int expected = 0;
    for (int i = 0; i < lines.size(); i++) {
      Matcher m = EXPECTED.matcher(lines.get(i));
      if (m.find()) {
        expected++;
        assertThat(compilation).hadWarningContaining("[" + m.group(1) + "]").inFile(source).onLine(i + 1);
        assertThat(compilation).hadWarningContaining(m.group(2).trim()).inFile(source).onLine(i + 1);
      }
    }
    List<String> warnings = new ArrayList<>();
    for (Diagnostic<? extends JavaFileObject> d : compilation.warnings()) {
      if (d.getMessage(null).contains("[KILN049]")) {
        warnings.add(d.getMessage(null));
      }
    }
    assertThat(warnings).hasSize(expected);
  }
}
