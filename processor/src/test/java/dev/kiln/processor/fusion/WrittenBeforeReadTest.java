package dev.kiln.processor.fusion;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import dev.kiln.processor.KilnProcessor;
import java.io.IOException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Which temporaries of a composite's CPU launcher are taken without zero-filling ({@link
 * WrittenBeforeRead}): only those whose first kernel provably writes every element before any read.
 * That the launchers compute the plain Java's results is checked in the tests module (every
 * composite and derived gradient of the suite against its source or finite differences).
 */
class WrittenBeforeReadTest {
  private static String kernels;

  @BeforeAll
  static void compile() throws IOException {
    Compilation c = javac().withProcessors(new KilnProcessor()).withOptions("-Akiln.nvcc=off").compile(
        JavaFileObjects.forSourceLines("w.Temps",
            "package w;",
            "import dev.kiln.*;",
            "public final class Temps {",
            "  /** Running sums of each row: stored in a loop, so never recomputed where read. */",
            "  @Operator public static void scan(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] x,",
            "      @Out @Shape(\"B, N\") float[] t) {",
            "    for (@Parallel int b = 0; b < B; b++) {",
            "      float acc = 0f;",
            "      for (int k = 0; k < N; k++) { acc += x[b * N + k]; t[b * N + k] = acc; }",
            "    }",
            "  }",
            "  @Operator public static void scanButLast(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] x,",
            "      @Out @Shape(\"B, N\") float[] t) {",
            "    for (@Parallel int b = 0; b < B; b++) {",
            "      float acc = 0f;",
            "      for (int k = 0; k < N - 1; k++) { acc += x[b * N + k]; t[b * N + k] = acc; }",
            "    }",
            "  }",
            "  @Operator public static void scanPositive(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] x,",
            "      @Out @Shape(\"B, N\") float[] t) {",
            "    for (@Parallel int b = 0; b < B; b++) {",
            "      float acc = 0f;",
            "      for (int k = 0; k < N; k++) { acc += x[b * N + k]; if (acc > 0f) t[b * N + k] = acc; }",
            "    }",
            "  }",
            "  @Operator public static void scanFirstColumn(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] x,",
            "      @Out @Shape(\"B, N\") float[] t) {",
            "    for (@Parallel int b = 0; b < B; b++) {",
            "      float acc = 0f;",
            "      for (int k = 0; k < N; k++) { acc += x[b * N + k]; t[b * N] = acc; }",
            "    }",
            "  }",
            "  /** Running sums of each row from each start: only t[b, j, k] with k >= j written. */",
            "  @Operator public static void scanFromEach(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] x,",
            "      @Out @Shape(\"B, N, N\") float[] t) {",
            "    for (@Parallel int b = 0; b < B; b++) {",
            "      for (int j = 0; j < N; j++) {",
            "        float acc = 0f;",
            "        for (int k = j; k < N; k++) { acc += x[b * N + k]; t[(b * N + j) * N + k] = acc; }",
            "      }",
            "    }",
            "  }",
            "  @Operator public static void colSums(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] t,",
            "      @Out @Shape(\"N\") float[] s) {",
            "    for (@Parallel int k = 0; k < N; k++) {",
            "      float a = 0f;",
            "      for (int b = 0; b < B; b++) a += t[b * N + k];",
            "      s[k] = a;",
            "    }",
            "  }",
            "  @Operator public static void full(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] x, @Out @Shape(\"N\") float[] s) {",
            "    float[] t = new float[B * N];",
            "    scan(B, N, x, t);",
            "    colSums(B, N, t, s);",
            "  }",
            "  @Operator public static void short1(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] x, @Out @Shape(\"N\") float[] s) {",
            "    float[] t = new float[B * N];",
            "    scanButLast(B, N, x, t);",
            "    colSums(B, N, t, s);",
            "  }",
            "  @Operator public static void guarded(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] x, @Out @Shape(\"N\") float[] s) {",
            "    float[] t = new float[B * N];",
            "    scanPositive(B, N, x, t);",
            "    colSums(B, N, t, s);",
            "  }",
            "  @Operator public static void triangle(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] x, @Out @Shape(\"N\") float[] s) {",
            "    float[] t = new float[B * N * N];",
            "    scanFromEach(B, N, x, t);",
            "    colSums(B * N, N, t, s);",
            "  }",
            "  @Operator public static void overwritten(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] x, @Out @Shape(\"N\") float[] s) {",
            "    float[] t = new float[B * N];",
            "    scanFirstColumn(B, N, x, t);",
            "    colSums(B, N, t, s);",
            "  }",
            "}"));
    assertThat(c).succeeded();
    kernels = c.generatedSourceFile("w.TempsKernels").orElseThrow().getCharContent(true).toString();
  }

  /** The CPU launcher of a composite, from its signature to its end. */
  private static String launcher(String name) {
    int start = kernels.indexOf("public static void " + name + "(int B, int N, float[] x, float[] s)");
    assertThat(start).isAtLeast(0);
    return kernels.substring(start, kernels.indexOf("\n  }\n", start));
  }

  @Test
  void aTemporaryItsFirstKernelWritesInFullIsNotZeroFilled() {
    // proved for sizes of at least 1: zero-filled still when one is 0
    assertThat(launcher("full")).containsMatch("final float\\[\\] t = temporaries\\$\\.floats\\(.*, B == 0 \\|\\| N == 0\\);");
    // the arrays go back to the pool only when the kernels returned
    assertThat(launcher("full")).containsMatch("full_k1\\(B, N, s, t\\);\\n\\s*//.*\\n\\s*temporaries\\$\\.finished\\(\\);");
  }

  @Test
  void oneWrittenShortOfItsLengthIsZeroFilled() {
    assertThat(launcher("short1")).containsMatch("final float\\[\\] t = temporaries\\$\\.floats\\(Checks.size\\([^;]*\\)\\);");
  }

  @Test
  void oneWrittenUnderAConditionIsZeroFilled() {
    assertThat(launcher("guarded")).containsMatch("final float\\[\\] t = temporaries\\$\\.floats\\(Checks.size\\([^;]*\\)\\);");
  }

  @Test
  void oneWrittenByATriangularLoopIsZeroFilled() {
    // k from j: the index's range holds [0, N) only as a superset, which counts B * N * N points
    // where B * N * (N + 1) / 2 are written
    assertThat(launcher("triangle")).containsMatch("final float\\[\\] t = temporaries\\$\\.floats\\(Checks.size\\([^;]*\\)\\);");
  }

  @Test
  void oneWhoseIndexDoesNotMoveWithTheLoopIsZeroFilled() {
    // B * N stores, but only B elements: the count alone would pass
    assertThat(launcher("overwritten")).containsMatch("final float\\[\\] t = temporaries\\$\\.floats\\(Checks.size\\([^;]*\\)\\);");
  }
}
