package dev.kiln.processor.codegen.cpu;

import static com.google.common.truth.Truth.assertThat;

import com.google.testing.compile.JavaFileObjects;
import java.io.IOException;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * Which column kernels the launcher runs as parts dealt to the threads ({@link DealtLoops}): a part
 * a loop with the stores of its results, over whole rows; not where a loop starts from another's
 * result, a store uses two parts' results, or an output may be an input another part reads (a call in
 * place). (That no part reads what another writes holds in every
 * operator a user writes, whose outputs are write-only, KILN020; the check is for fused kernels.)
 */
class DealtLoopsTest {
  private static final JavaFileObject OPS = JavaFileObjects.forSourceLines("demo.Ops",
      "package demo;",
      "import dev.kiln.*;",
      "public final class Ops {",
      "  @Operator public static void twoSums(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] x, @Shape(\"B, N\") float[] y,",
      "      @Out @Shape(\"N\") float[] rows, @Out @Shape(\"N\") float[] sx, @Out @Shape(\"N\") float[] sy) {",
      "    for (@Parallel int n = 0; n < N; n++) {",
      "      rows[n] = B;",
      "      float s = 0f;",
      "      for (int b = 0; b < B; b++) s += x[b * N + n];",
      "      float t = 0f;",
      "      for (int b = 0; b < B / 2; b++) t += y[b * N + n];",
      "      sy[n] = t * 2f;",
      "      sx[n] = s;",
      "    }",
      "  }",
      "  @Operator public static void chained(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] x, @Out @Shape(\"N\") float[] sx,",
      "      @Out @Shape(\"N\") float[] out) {",
      "    for (@Parallel int n = 0; n < N; n++) {",
      "      float s = 0f;",
      "      for (int b = 0; b < B; b++) s += x[b * N + n];",
      "      sx[n] = s;",
      "      float m = s;",
      "      for (int b = 0; b < B; b++) m = KMath.max(m, x[b * N + n]);",
      "      out[n] = m;",
      "    }",
      "  }",
      "  @Operator public static void inPlace(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] x, @Shape(\"N\") float[] w,",
      "      @Out @Shape(\"N\") float[] sx, @Out @Shape(\"N\") float[] ws) {",
      "    for (@Parallel int n = 0; n < N; n++) {",
      "      float s = 0f;",
      "      for (int b = 0; b < B; b++) s += x[b * N + n] * w[n];",
      "      float t = 0f;",
      "      for (int b = 0; b < B; b++) t += x[b * N + n];",
      "      sx[n] = s;",
      "      ws[n] = t;",
      "    }",
      "  }",
      "  @Operator public static void joined(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] x, @Shape(\"B, N\") float[] y,",
      "      @Out @Shape(\"N\") float[] out) {",
      "    for (@Parallel int n = 0; n < N; n++) {",
      "      float s = 0f;",
      "      for (int b = 0; b < B; b++) s += x[b * N + n];",
      "      float t = 0f;",
      "      for (int b = 0; b < B; b++) t += y[b * N + n];",
      "      out[n] = s - t;",
      "    }",
      "  }",
      "}");

  private static String all(String generatedClass) throws IOException {
    return GeneratedCode.of(OPS, generatedClass);
  }

  @Test
  void independentColumnLoopsBecomePartsOverWholeRowsEachWithItsStores() throws IOException {
    String simd = all("demo.OpsSimdKernels");
    String part0 = GeneratedCode.simdMethod(simd, "twoSums$part0");
    String part1 = GeneratedCode.simdMethod(simd, "twoSums$part1");
    // the first part: the store of no loop's result, the first loop and its store; blocks of whole rows
    assertThat(part0).contains("Math.min(" + DealtLoops.ROW_BLOCK + ", ");
    assertThat(part0).contains("intoArray(rows, ");
    assertThat(part0).contains("fromArray(SPECIES, x, ");
    assertThat(part0).contains("intoArray(sx, ");
    assertThat(part0).doesNotContain("fromArray(SPECIES, y, ");
    assertThat(part0).doesNotContain("sy[");
    assertThat(part0).doesNotContain("intoArray(sy, ");
    // the second: the other loop (over its own rows) and its store
    assertThat(part1).contains("fromArray(SPECIES, y, ");
    assertThat(part1).contains("B / 2");
    assertThat(part1).contains("intoArray(sy, ");
    assertThat(part1).doesNotContain("fromArray(SPECIES, x, ");
    assertThat(part1).doesNotContain("rows[");
    assertThat(part1).doesNotContain("intoArray(rows, ");
    assertThat(part1).doesNotContain("sx[");
    assertThat(part1).doesNotContain("intoArray(sx, ");
    // the whole kernel keeps its blocks of 1024 columns for one chunk
    assertThat(GeneratedCode.simdMethod(simd, "twoSums")).contains("Math.min(" + ColumnLoops.BLOCK + ", ");
  }

  @Test
  void theLauncherDealsThePartsAChunkEachOverCopiesOfTheColumns() throws IOException {
    String launcher = GeneratedCode.method(all("demo.OpsKernels"), "public static void twoSums(int B");
    assertThat(launcher).contains("if (Simd.ENABLED && chunks > 1 && (long) 2 * N <= Integer.MAX_VALUE) {");
    assertThat(launcher).contains("final int dealt = 2 * ((chunks + 1) / 2);");
    assertThat(launcher).contains("final int part2 = lo / N;");
    assertThat(launcher).contains("final int from2 = lo - part2 * N;");
    assertThat(launcher).contains("final int to2 = hi - part2 * N;");
    String spaced = launcher.replaceAll("\\s+", " ");
    assertThat(spaced).contains("case 0 -> { OpsSimdKernels.twoSums$part0(from2, to2, B, N, x, y, rows, sx, sy); }");
    assertThat(spaced).contains("default -> { OpsSimdKernels.twoSums$part1(from2, to2, B, N, x, y, rows, sx, sy); }");
    assertThat(launcher).contains("CpuExecutor.forEachChunkChoosing(\"Ops.twoSums (Ops.java:4)\", 2 * N, dealt, ");
  }

  @Test
  void loopsThatNeedEachOtherStayOneKernel() throws IOException {
    String simd = all("demo.OpsSimdKernels");
    String kernels = all("demo.OpsKernels");
    // (inPlace: ws may be w, which the first loop reads; dealt, the second part could store ws[n]
    // before the first has read w[n])
    for (String op : new String[] {"chained", "joined", "inPlace"}) {
      assertThat(simd).doesNotContain(op + "$part");
      assertThat(GeneratedCode.method(kernels, "public static void " + op + "(int B")).doesNotContain("DealtLoops");
    }
  }
}
