package dev.kiln.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.JavaFileObject;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every refusal of the processor, one source file per case under {@code
 * src/test/resources/negative}. A line ending in {@code // error: KILN007 some text} expects an
 * error with that id, containing that text, on that line of that file (MapStruct's and Error
 * Prone's way of pinning diagnostics). A case must produce exactly its expected errors.
 */
class NegativeCasesTest {
  private static final Pattern EXPECTED = Pattern.compile("// error: (KILN\\d{3})\\s*(.*)$");

  record Expected(String id, String text, long line) {}

  static Stream<String> cases() throws IOException, URISyntaxException {
    URL dir = NegativeCasesTest.class.getResource("/negative");
    try (Stream<Path> files = Files.list(Paths.get(dir.toURI()))) {
      return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".java")).sorted().toList().stream();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void reportsEachErrorOnItsLine(String file) throws Exception {
    String resource = "negative/" + file;
    List<String> lines = Files.readAllLines(Paths.get(NegativeCasesTest.class.getResource("/" + resource).toURI()));
    List<Expected> expected = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      Matcher m = EXPECTED.matcher(lines.get(i));
      if (m.find()) {
        expected.add(new Expected(m.group(1), m.group(2).trim(), i + 1));
      }
    }
    assertThat(expected).isNotEmpty();

    JavaFileObject source = JavaFileObjects.forResource(resource);
    Compilation compilation = javac().withProcessors(new KilnProcessor()).compile(source);

    assertThat(compilation).failed();
    for (Expected e : expected) {
      assertThat(compilation).hadErrorContaining("[" + e.id() + "]").inFile(source).onLine(e.line());
      if (!e.text().isEmpty()) {
        assertThat(compilation).hadErrorContaining(e.text()).inFile(source).onLine(e.line());
      }
    }
    assertThat(compilation).hadErrorCount(expected.size());
  }
}
