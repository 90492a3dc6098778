package dev.kiln.processor;

import static com.google.common.truth.Truth.assertThat;

import com.google.testing.compile.Compilation;
import java.util.List;
import javax.tools.Diagnostic;
import org.junit.jupiter.api.Test;

/**
 * Operators Kiln compiles but cannot differentiate get note KILN043 on the construct that prevents
 * it, and no gradient launcher; the class still compiles. Each expected note is marked {@code //
 * note: KILN043 text} on its line of {@code gradients/NotDifferentiable.java}.
 */
class GradientNotesTest {
  @Test
  void eachNoteIsOnItsLine() throws Exception {
    Compilation compilation = MarkedDiagnostics.check("gradients/NotDifferentiable.java", Diagnostic.Kind.NOTE, "KILN043");
    String kernels = compilation.generatedSourceFile("gradients.NotDifferentiableKernels").orElseThrow()
        .getCharContent(true).toString();
    for (String op : List.of("prefix", "product", "pick", "lastAbove", "twice", "total")) {
      assertThat(kernels).doesNotContain(" " + op + "Grad(");
    }
  }
}
