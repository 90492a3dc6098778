package dev.kiln.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.io.IOException;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.Test;

/**
 * Which CUDA kernel shape a {@code @Reduce} operator gets. One block per output element only when
 * the accumulated index provably gives different blocks different elements; otherwise two blocks
 * would update one element at once on a GPU (a race the host emulation, which runs blocks one after
 * another, cannot show), so the operator takes partial results ({@code _partials}, {@code _fold}).
 */
class ReducingKernelShapeTest {
  private static final String SOURCE = String.join("\n",
      "package r;",
      "import dev.kiln.*;",
      "public final class Shapes {",
      "  private Shapes() {}",
      "  @Operator public static void rowSums(@Dim int B, @Dim int K, @Shape(\"B, K\") float[] x,",
      "      @Out @Reduce @Shape(\"B\") float[] s) {",
      "    for (@Parallel int b = 0; b < B; b++) { for (@Parallel int k = 0; k < K; k++) { s[b] += x[b * K + k]; } }",
      "  }",
      "  @Operator public static void blockSums(@Dim int B, @Dim int K, @Dim int C, @Shape(\"B, K, C\") float[] x,",
      "      @Out @Reduce @Shape(\"B, C\") float[] s) {",
      "    for (@Parallel int b = 0; b < B; b++) { for (@Parallel int k = 0; k < K; k++) {",
      "      for (@Parallel int c = 0; c < C; c++) { s[b * C + c] += x[(b * K + k) * C + c]; } } }",
      "  }",
      "  @Operator public static void diagonalSums(@Dim int N, @Shape(\"N, N\") float[] x,",
      "      @Out @Reduce @Shape(\"2 * N\") float[] s) {",
      "    for (@Parallel int i = 0; i < N; i++) { for (@Parallel int j = 0; j < N; j++) { s[i + j] += x[i * N + j]; } }",
      "  }",
      "}");

  private static String cu() throws IOException {
    Compilation c = javac().withProcessors(new KilnProcessor()).withOptions("-Akiln.nvcc=off")
        .compile(JavaFileObjects.forSourceString("r.Shapes", SOURCE));
    assertThat(c).succeeded();
    return c.generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/kiln/r/Shapes.cu").orElseThrow()
        .getCharContent(true).toString();
  }

  @Test
  void aProvablyDistinctIndexGetsOneBlockPerElement() throws IOException {
    String cu = cu();
    assertThat(cu).contains("__global__ void rowSums(");
    assertThat(cu).contains("__global__ void blockSums(");
    assertThat(cu).doesNotContain("rowSums_partials");
    assertThat(cu).doesNotContain("blockSums_partials");
  }

  @Test
  void anIndexThatMayMeetTakesPartialResults() throws IOException {
    String cu = cu();
    assertThat(cu).doesNotContain("__global__ void diagonalSums(");
    assertThat(cu).contains("__global__ void diagonalSums_partials(");
    assertThat(cu).contains("__global__ void diagonalSums_fold(");
    assertThat(cu).contains("// diagonalSums: the index of 's' may give two output elements' blocks the same element");
  }
}
