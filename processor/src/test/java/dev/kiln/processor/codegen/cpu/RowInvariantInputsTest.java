package dev.kiln.processor.codegen.cpu;

import static com.google.common.truth.Truth.assertThat;

import com.google.testing.compile.JavaFileObjects;
import java.io.IOException;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * Which inputs a launcher hands its SIMD form as aligned copies ({@code AlignedCopies}): those every
 * outer index reads at a variable that provably stays inside their length, and no other.
 */
class RowInvariantInputsTest {
  private static final JavaFileObject OPS = JavaFileObjects.forSourceLines("demo.Ops",
      "package demo;",
      "import dev.kiln.*;",
      "public final class Ops {",
      "  @Operator public static void norm(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] x, @Shape(\"N\") float[] g,",
      "      @Shape(\"N\") float[] h, @Out @Shape(\"B, N\") float[] y) {",
      "    for (@Parallel int b = 0; b < B; b++) {",
      "      float s = 0f;",
      "      for (int k = 0; k < N; k++) s += x[b * N + k];",
      "      for (int k = 0; k < N; k++) y[b * N + k] = (x[b * N + k] - s) * g[k] + h[k];",
      "    }",
      "  }",
      "  @Operator public static void bias(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] x, @Shape(\"N\") float[] c,",
      "      @Out @Shape(\"B, N\") float[] y) {",
      "    for (@Parallel int b = 0; b < B; b++) for (@Parallel int j = 0; j < N; j++) y[b * N + j] = x[b * N + j] + c[j];",
      "  }",
      "  @Operator public static void shifted(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] x, @Shape(\"N\") float[] g,",
      "      @Out @Shape(\"B, N\") float[] y) {",
      "    for (@Parallel int b = 0; b < B; b++) {",
      "      float s = 0f;",
      "      for (int k = 0; k < N; k++) s += x[b * N + k];",
      "      for (int k = 0; k < N - 1; k++) y[b * N + k] = (x[b * N + k] - s) * g[k + 1];",
      "    }",
      "  }",
      "  @Operator public static void perRow(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] x, @Shape(\"B\") float[] g,",
      "      @Out @Shape(\"B, N\") float[] y) {",
      "    for (@Parallel int b = 0; b < B; b++) {",
      "      float s = 0f;",
      "      for (int k = 0; k < N; k++) s += x[b * N + k];",
      "      for (int k = 0; k < N; k++) y[b * N + k] = (x[b * N + k] - s) * g[b];",
      "    }",
      "  }",
      "  @Operator public static void longer(@Dim int B, @Dim int N, @Dim int M, @Shape(\"B, M\") float[] x,",
      "      @Shape(\"N\") float[] g, @Out @Shape(\"B, M\") float[] y) {",
      "    for (@Parallel int b = 0; b < B; b++) {",
      "      float s = 0f;",
      "      for (int k = 0; k < M; k++) s += x[b * M + k];",
      "      for (int k = 0; k < M; k++) y[b * M + k] = (x[b * M + k] - s) * g[k];",
      "    }",
      "  }",
      "}");

  private static String launchers() throws IOException {
    return GeneratedCode.of(OPS, "demo.OpsKernels");
  }

  /** The generated CPU launcher {@code name}, to its closing brace. */
  private static String launcher(String all, String name) {
    return GeneratedCode.method(all, "public static void " + name + "(int B");
  }

  @Test
  void inputsEveryRowReadsWholeAreCopiedForTheSimdForm() throws IOException {
    String all = launchers();
    assertThat(launcher(all, "norm")).contains("    if (Simd.ENABLED) {\n"
        + "      try (final AlignedCopies copies = AlignedCopies.of(B)) {\n"
        + "        final float[] gAligned = copies.copy(g);\n"
        + "        final float[] hAligned = copies.copy(h);\n"
        + "        CpuExecutor.forEachChunkChoosing(\"Ops.norm (Ops.java:4)\", B, chunks, (chunk, lo, hi) ->"
        + " OpsSimdKernels.norm(lo, hi, B, N, x, gAligned, hAligned, y), scalar, ");
    // the scalar form reads the inputs themselves
    assertThat(launcher(all, "norm")).contains("* g[k");
    // a grid variable that is not the outermost one indexes the bias
    assertThat(launcher(all, "bias")).contains("final float[] cAligned = copies.copy(c);");
  }

  @Test
  void inputsNotProvablyReadInsideTheirLengthOrPerRowAreNot() throws IOException {
    String all = launchers();
    // g[k + 1]: not a variable; g[b]: the outermost grid variable; g[k] for k < M with g's length N
    for (String name : new String[] {"shifted", "perRow", "longer"}) {
      String launcher = launcher(all, name);
      assertThat(launcher).contains("OpsSimdKernels." + name + "(lo, hi");
      assertThat(launcher).doesNotContain("AlignedCopies");
    }
  }
}
