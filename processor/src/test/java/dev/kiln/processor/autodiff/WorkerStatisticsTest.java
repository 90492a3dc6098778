package dev.kiln.processor.autodiff;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import dev.kiln.processor.KilnProcessor;
import java.io.IOException;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Which loops a row kernel's training forms save ({@link WorkerStatistics}): the forward kernel
 * stores what a saved loop leaves in its variables, the backward kernel loads it instead of running
 * the loop; a loop under an {@code if}, or one that stores, is run again, and an operator whose
 * gradient reads no loop's result gets no training forms.
 */
class WorkerStatisticsTest {
  private static Compilation compilation;
  private static String forward;
  private static String backward;

  @BeforeAll
  static void compile() throws IOException {
    compilation = javac().withProcessors(new KilnProcessor()).withOptions("-Akiln.nvcc=off")
        .compile(JavaFileObjects.forResource("autodiff/RowStatistics.java"));
    assertThat(compilation).succeeded();
    forward = text("META-INF/kiln/autodiff/RowStatistics.ir.txt");
    backward = text("META-INF/kiln/autodiff/RowStatistics.gradients.ir.txt");
  }

  private static String text(String path) throws IOException {
    return compilation.generatedFile(StandardLocation.CLASS_OUTPUT, path).orElseThrow().getCharContent(true).toString();
  }

  private static String section(String listing, String from) {
    int at = listing.indexOf(from);
    assertThat(at).isAtLeast(0);
    int end = listing.indexOf("\n\n", at + 1);
    return end < 0 ? listing.substring(at) : listing.substring(at, end);
  }

  @Test
  void softmaxSavesItsMaximumAndSumAndItsGradientLoadsThem() {
    assertThat(forward).contains(
        "composite softmaxSaving(R, N, in x[R, N], out y[R, N], out mSaved[R], out sSaved[R])\n"
            + "  softmax$saving#1 = softmax$saving(R, N, x, out y, out mSaved, out sSaved)\n"
            + "  fused into 1 kernel; temporaries allocated: none");
    String kernel = section(forward, "# kernel softmaxSaving_k0 ");
    assertThat(kernel).containsMatch("carry \\(m = -inff\\) \\{\n(.*\n)*?  \\} -> m_2\n  store mSaved\\[r\\] = m_2\n");
    assertThat(kernel).containsMatch("carry \\(s = 0.0f\\) \\{\n(.*\n)*?  \\} -> s_2\n  store sSaved\\[r\\] = s_2\n");
    assertThat(backward).contains(
        "composite softmaxGradSaved(R, N, in x[R, N], in y[R, N], in mSaved[R], in sSaved[R], in dy[R, N], out dx[R, N])");
    String saved = section(backward, "# kernel softmaxGradSaved_k0 ");
    assertThat(saved).contains("load mSaved[r]");
    assertThat(saved).contains("load sSaved[r]");
    assertThat(saved).doesNotContain("carry (m = ");
    assertThat(saved).doesNotContain("carry (s = ");
    String plain = section(backward, "# kernel softmaxGrad_k0 ");
    assertThat(plain).contains("carry (m = -inff)");
    assertThat(plain).contains("carry (s = 0.0f)");
  }

  @Test
  void aCompositesTrainingFormsHandOverTheStatisticsOfTheRowKernelItCalls() {
    String saving = section(forward, "composite sharpenedSaving(");
    assertThat(saving).startsWith("composite sharpenedSaving(R, N, in x[R, N], out y[R, N], out mSaved[R], out sSaved[R])");
    assertThat(saving).contains("softmax#1 = softmax$saving(R, N, doubled, out y, out mSaved, out sSaved)");
    String saved = section(backward, "composite sharpenedGradSaved(");
    assertThat(saved).startsWith("composite sharpenedGradSaved(R, N, in x[R, N], in y[R, N], in mSaved[R], in sSaved[R], in dy[R, N],");
    assertThat(saved).containsMatch("softmax\\$adjoint#1 = softmax\\$adjoint\\(R, N, doubled, y, .*, mSaved, sSaved\\)");
    String kernels = backward.substring(backward.indexOf("composite sharpenedGradSaved("));
    kernels = kernels.substring(0, kernels.indexOf("\ncomposite ") < 0 ? kernels.length() : kernels.indexOf("\ncomposite "));
    assertThat(kernels).doesNotContain("carry (m = ");
    assertThat(kernels).doesNotContain("carry (s = ");
  }

  @Test
  void aGradientThatReadsNoLoopResultGetsNoTrainingForms() {
    assertThat(backward).contains("composite rowSumGrad(");
    assertThat(forward).doesNotContain("rowSumSaving");
    assertThat(backward).doesNotContain("rowSumGradSaved");
  }

  @Test
  void loopsUnderAnIfOrThatStoreAreRunAgain() {
    assertThat(backward).contains("composite scaledWhenPositiveGrad(");
    assertThat(backward).contains("composite copiedThenScaledGrad(");
    for (String op : new String[] {"scaledWhenPositive", "copiedThenScaled"}) {
      assertThat(forward).doesNotContain(op + "Saving");
      assertThat(backward).doesNotContain(op + "GradSaved");
    }
  }
}
