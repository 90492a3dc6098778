package dev.kiln.processor.codegen;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import dev.kiln.processor.KilnProcessor;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * The generated launchers' javadoc links only to methods the operator class declares: a kernel of a
 * fused composite ({@code block_k0}), a derived gradient ({@code blockGrad}, {@code swishGrad}) or a
 * training form is named in code font with a link to the operator it was made from, so that javadoc
 * (whose reference check is an error) runs on a user's generated sources.
 */
class GeneratedJavadocTest {
  private static final Set<String> DECLARED = Set.of("swish", "scale", "rowSoftmax", "dense", "block");
  private static final Pattern LINK = Pattern.compile("\\{@link (?:javadoc\\.)?Links#(\\w+)\\}");

  @Test
  void everyLinkNamesADeclaredMethod() throws IOException {
    Compilation c = javac().withProcessors(new KilnProcessor()).withOptions("-Akiln.nvcc=off")
        .compile(JavaFileObjects.forResource("javadoc/Links.java"));
    assertThat(c).succeeded();
    List<String> links = new ArrayList<>();
    StringBuilder generated = new StringBuilder();
    for (JavaFileObject file : c.generatedSourceFiles()) {
      String text = file.getCharContent(true).toString();
      generated.append(file.getName()).append('\n');
      Matcher m = LINK.matcher(text);
      while (m.find()) {
        links.add(m.group(1));
      }
    }
    assertThat(generated.toString()).contains("LinksKernels");
    assertThat(links).isNotEmpty();
    assertThat(DECLARED).containsAtLeastElementsIn(new java.util.TreeSet<>(links));
    String kernels = c.generatedSourceFile("javadoc.LinksKernels").orElseThrow().getCharContent(true).toString();
    // the names it made itself, in code font, each pointing at its operator
    assertThat(kernels).contains("{@code Links.block_k0} (made from {@link Links#block})");
    assertThat(kernels).contains("{@code Links.blockGrad} (made from {@link Links#block})");
    assertThat(kernels).contains("{@code Links.swishGrad} (made from {@link Links#swish})");
  }
}
