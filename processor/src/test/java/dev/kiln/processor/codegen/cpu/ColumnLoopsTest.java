package dev.kiln.processor.codegen.cpu;

import static com.google.common.truth.Truth.assertThat;

import com.google.testing.compile.JavaFileObjects;
import java.io.IOException;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * Which column loops the lanes form steps in one pass over the rows ({@link ColumnLoops}): loops over
 * the same rows, the stores between them moved after the pass; not a loop whose initial value is
 * another loop's result, nor loops over different rows.
 */
class ColumnLoopsTest {
  private static final JavaFileObject OPS = JavaFileObjects.forSourceLines("demo.Ops",
      "package demo;",
      "import dev.kiln.*;",
      "public final class Ops {",
      "  @Operator public static void twoSums(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] x, @Shape(\"B, N\") float[] y,",
      "      @Out @Shape(\"N\") float[] sx, @Out @Shape(\"N\") float[] sy) {",
      "    for (@Parallel int n = 0; n < N; n++) {",
      "      float s = 0f;",
      "      for (int b = 0; b < B; b++) s += x[b * N + n];",
      "      sx[n] = s;",
      "      float t = 0f;",
      "      for (int b = 0; b < B; b++) t += y[b * N + n];",
      "      sy[n] = t;",
      "    }",
      "  }",
      "  @Operator public static void chained(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] x, @Out @Shape(\"N\") float[] out) {",
      "    for (@Parallel int n = 0; n < N; n++) {",
      "      float s = 0f;",
      "      for (int b = 0; b < B; b++) s += x[b * N + n];",
      "      float m = s;",
      "      for (int b = 0; b < B; b++) m = KMath.max(m, x[b * N + n]);",
      "      out[n] = m;",
      "    }",
      "  }",
      "  @Operator public static void shorter(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] x, @Out @Shape(\"N\") float[] sx,",
      "      @Out @Shape(\"N\") float[] half) {",
      "    for (@Parallel int n = 0; n < N; n++) {",
      "      float s = 0f;",
      "      for (int b = 0; b < B; b++) s += x[b * N + n];",
      "      sx[n] = s;",
      "      float t = 0f;",
      "      for (int b = 0; b < B / 2; b++) t += x[b * N + n];",
      "      half[n] = t;",
      "    }",
      "  }",
      "}");

  private static String simdKernels() throws IOException {
    return GeneratedCode.simdKernels(OPS);
  }

  @Test
  void twoSumsOverTheSameRowsRunInOnePassTheirStoresAfterIt() throws IOException {
    String twoSums = GeneratedCode.simdMethod(simdKernels(), "twoSums");
    assertThat(twoSums).contains("// 2 loops over the same rows in one pass: each lane's terms still in row order\n");
    String pass = twoSums.substring(twoSums.indexOf("in one pass"));
    int rowLoop = pass.indexOf("for (int b");
    assertThat(pass.indexOf("fromArray(SPECIES, x, ")).isGreaterThan(rowLoop);
    assertThat(pass.indexOf("fromArray(SPECIES, y, ")).isGreaterThan(rowLoop);
    assertThat(pass.indexOf(".intoArray(sx, ")).isGreaterThan(pass.indexOf("fromArray(SPECIES, y, "));
    assertThat(pass.indexOf(".intoArray(sy, ")).isGreaterThan(pass.indexOf(".intoArray(sx, "));
  }

  @Test
  void aLoopStartingFromAnotherLoopsResultOrOverOtherRowsGetsAPassOfItsOwn() throws IOException {
    String all = simdKernels();
    assertThat(GeneratedCode.simdMethod(all, "chained")).doesNotContain("in one pass");
    assertThat(GeneratedCode.simdMethod(all, "shorter")).doesNotContain("in one pass");
  }
}
