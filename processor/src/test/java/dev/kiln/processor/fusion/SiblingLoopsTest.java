package dev.kiln.processor.fusion;

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
 * Which folding loops of a worker the device runs as one ({@link SiblingLoops}) and which it keeps
 * apart; the CPU keeps every loop. That the joined kernels agree with the plain Java is checked on
 * the emulated driver (tests module: softmax's and layer norm's gradients among every operator).
 */
class SiblingLoopsTest {
  private static String cu;
  private static String kernels;

  @BeforeAll
  static void compile() throws IOException {
    Compilation c = javac().withProcessors(new KilnProcessor()).withOptions("-Akiln.nvcc=off").compile(
        JavaFileObjects.forSourceLines("s.Pairs",
            "package s;",
            "import dev.kiln.*;",
            "import static dev.kiln.KMath.*;",
            "public final class Pairs {",
            "  @Operator public static void sumAndMax(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] x,",
            "      @Out @Shape(\"B\") float[] s, @Out @Shape(\"B\") float[] m, @Out @Shape(\"B, N\") float[] y) {",
            "    for (@Parallel int b = 0; b < B; b++) {",
            "      float a = 0f;",
            "      for (int k = 0; k < N; k++) a += x[b * N + k];",
            "      float c = Float.NEGATIVE_INFINITY;",
            "      for (int k = 0; k < N; k++) c = max(c, x[b * N + k]);",
            "      s[b] = a;",
            "      m[b] = c;",
            "      for (int k = 0; k < N; k++) y[b * N + k] = (x[b * N + k] - c) / a;",
            "    }",
            "  }",
            "  @Operator public static void sumAndMaxAlone(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] x,",
            "      @Out @Shape(\"B\") float[] s, @Out @Shape(\"B\") float[] m) {",
            "    for (@Parallel int b = 0; b < B; b++) {",
            "      float a = 0f;",
            "      for (int k = 0; k < N; k++) a += x[b * N + k];",
            "      float c = Float.NEGATIVE_INFINITY;",
            "      for (int k = 0; k < N; k++) c = max(c, x[b * N + k]);",
            "      s[b] = a;",
            "      m[b] = c;",
            "    }",
            "  }",
            "  @Operator public static void twoArrays(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] x,",
            "      @Shape(\"B, N\") float[] z, @Out @Shape(\"B\") float[] s, @Out @Shape(\"B\") float[] m) {",
            "    for (@Parallel int b = 0; b < B; b++) {",
            "      float a = 0f;",
            "      for (int k = 0; k < N; k++) a += x[b * N + k];",
            "      float c = Float.NEGATIVE_INFINITY;",
            "      for (int k = 0; k < N; k++) c = max(c, z[b * N + k]);",
            "      s[b] = a;",
            "      m[b] = c;",
            "    }",
            "  }",
            "  @Operator public static void spread(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] x,",
            "      @Out @Shape(\"B\") float[] v) {",
            "    for (@Parallel int b = 0; b < B; b++) {",
            "      float a = 0f;",
            "      for (int k = 0; k < N; k++) a += x[b * N + k];",
            "      float mean = a / N;",
            "      float q = 0f;",
            "      for (int k = 0; k < N; k++) q += (x[b * N + k] - mean) * (x[b * N + k] - mean);",
            "      v[b] = q;",
            "    }",
            "  }",
            "  @Operator public static void otherRanges(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] x,",
            "      @Out @Shape(\"B\") float[] s, @Out @Shape(\"B\") float[] t) {",
            "    for (@Parallel int b = 0; b < B; b++) {",
            "      float a = 0f;",
            "      for (int k = 0; k < N; k++) a += x[b * N + k];",
            "      float c = 0f;",
            "      for (int k = 1; k < N; k++) c += x[b * N + k];",
            "      s[b] = a;",
            "      t[b] = c;",
            "    }",
            "  }",
            "}"));
    assertThat(c).succeeded();
    cu = c.generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/kiln/s/Pairs.cu").orElseThrow()
        .getCharContent(true).toString();
    kernels = c.generatedSourceFile("s.PairsKernels").orElseThrow().getCharContent(true).toString();
  }

  private static String body(String name) {
    int start = cu.indexOf("extern \"C\" __global__ void " + name + "(");
    assertThat(start).isAtLeast(0);
    return cu.substring(start, cu.indexOf("\n}\n", start));
  }

  private static int loops(String text) {
    return text.split("for \\(int ", -1).length - 1;
  }

  @Test
  void independentFoldsOverOneRangeAreOnePass() {
    String body = body("sumAndMax");
    assertThat(loops(body)).isEqualTo(2);
    // one read of x serves both folds (the shared row, filled by the joined loop, serves the last)
    assertThat(body).containsMatch("aPart = aPart \\+ (t\\d+);\\n\\s*cPart = kiln::max\\(cPart, \\1\\);");
    assertThat(body).contains("row_x[");
    assertThat(loops(body("twoArrays"))).isEqualTo(1);
  }

  @Test
  void aJoinThatWouldLeaveARowReadOnceIsNotMade() {
    // joined, x would be read by one loop and lose its shared row and the short-row form
    String body = body("sumAndMaxAlone");
    assertThat(loops(body)).isEqualTo(2);
    assertThat(cu).contains("void sumAndMaxAlone_short(");
  }

  @Test
  void aFoldThatNeedsTheOneBeforeStaysApart() {
    assertThat(loops(body("spread"))).isEqualTo(2);
  }

  @Test
  void foldsOverOtherRangesStayApart() {
    assertThat(loops(body("otherRanges"))).isEqualTo(2);
  }

  @Test
  void theCpuKeepsEveryLoop() {
    int start = kernels.indexOf("static void sumAndMax(int B, int N, float[] x");
    assertThat(start).isAtLeast(0);
    String cpu = kernels.substring(start, kernels.indexOf("\n  }\n", start));
    assertThat(loops(cpu)).isAtLeast(2);
  }
}
