package dev.kiln.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;

/**
 * Compiles a test resource whose expected notes or warnings are marked on their lines ({@code //
 * note: KILN043 text}, {@code // warning: KILN049 text}) and checks that it compiles, that each
 * marked line has its diagnostic (id and text), and that there is no other diagnostic with that id.
 */
final class MarkedDiagnostics {
  private MarkedDiagnostics() {}

  /** The compilation, after the checks; {@code kind} is NOTE or WARNING. */
  static Compilation check(String resource, Diagnostic.Kind kind, String id) throws Exception {
    String marker = kind == Diagnostic.Kind.NOTE ? "note" : "warning";
    Pattern expectedPattern = Pattern.compile("// " + marker + ": (KILN\\d{3})\\s*(.*)$");
    List<String> lines = Files.readAllLines(Paths.get(MarkedDiagnostics.class.getResource("/" + resource).toURI()));
    JavaFileObject source = JavaFileObjects.forResource(resource);
    Compilation compilation = javac().withProcessors(new KilnProcessor()).withOptions("-Akiln.nvcc=off").compile(source);
    assertThat(compilation).succeeded();
    int expected = 0;
    for (int i = 0; i < lines.size(); i++) {
      Matcher m = expectedPattern.matcher(lines.get(i));
      if (m.find()) {
        expected++;
        for (String text : List.of("[" + m.group(1) + "]", m.group(2).trim())) {
          if (kind == Diagnostic.Kind.NOTE) {
            assertThat(compilation).hadNoteContaining(text).inFile(source).onLine(i + 1);
          } else {
            assertThat(compilation).hadWarningContaining(text).inFile(source).onLine(i + 1);
          }
        }
      }
    }
    List<Diagnostic<? extends JavaFileObject>> all = kind == Diagnostic.Kind.NOTE ? compilation.notes() : compilation.warnings();
    assertThat(all.stream().filter(d -> d.getMessage(null).contains("[" + id + "]")).count()).isEqualTo((long) expected);
    return compilation;
  }
}
