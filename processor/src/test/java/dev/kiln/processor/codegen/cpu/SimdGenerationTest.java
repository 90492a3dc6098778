package dev.kiln.processor.codegen.cpu;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import dev.kiln.processor.KilnProcessor;
import java.io.IOException;
import javax.tools.JavaFileObject;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.Test;

/**
 * SIMD kernels are written when javac resolves the Vector API ({@code --add-modules
 * jdk.incubator.vector}) and not turned off by {@code -Akiln.simd=false}: a {@code SimdKernels}
 * class for the accepted grid kernels, a dispatch on {@code Simd.ENABLED} in their launchers, and
 * the listing's section saying which kernels have one and why the others do not.
 */
class SimdGenerationTest {
  private static final JavaFileObject OPS = JavaFileObjects.forSourceLines("demo.Ops",
      "package demo;",
      "import dev.kiln.*;",
      "public final class Ops {",
      "  @Operator public static void scale(@Dim int N, @Shape(\"N\") float[] x, float s, @Out @Shape(\"N\") float[] y) {",
      "    for (@Parallel int i = 0; i < N; i++) y[i] = KMath.tanh(x[i] * s);",
      "  }",
      "  @Operator public static void total(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] x, @Out @Shape(\"B\") float[] y) {",
      "    for (@Parallel int b = 0; b < B; b++) { float t = 0f; for (int k = 0; k < N; k++) t += x[b * N + k]; y[b] = t; }",
      "  }",
      "  @Operator public static void strided(@Dim int N, @Shape(\"2*N\") float[] x, @Out @Shape(\"N\") float[] y) {",
      "    for (@Parallel int i = 0; i < N; i++) y[i] = x[2 * i];",
      "  }",
      "}");

  private static Compilation compile(String... options) {
    Compilation c = javac().withProcessors(new KilnProcessor()).withOptions((Object[]) options).compile(OPS);
    assertThat(c).succeeded();
    return c;
  }

  /** {@code source} compiled with the Vector API (no nvcc), which must succeed. */
  private static Compilation compileWithVectors(JavaFileObject source) {
    Compilation c = javac().withProcessors(new KilnProcessor())
        .withOptions("-Akiln.nvcc=none", "--add-modules", "jdk.incubator.vector").compile(source);
    assertThat(c).succeeded();
    return c;
  }

  /** The text of the generated method of {@code source} that starts with {@code header}, to its closing brace. */
  private static String method(String source, String header) {
    String from = source.substring(source.indexOf(header));
    return from.substring(0, from.indexOf("\n  }\n"));
  }

  private static String text(Compilation c, StandardLocation where, String path) throws IOException {
    return c.generatedFile(where, path).orElseThrow().getCharContent(true).toString();
  }

  @Test
  void withTheVectorApiAcceptedKernelsGetSimdFormsAndADispatch() throws IOException {
    Compilation c = compile("-Akiln.nvcc=none", "--add-modules", "jdk.incubator.vector");
    String simd = c.generatedSourceFile("demo.OpsSimdKernels").orElseThrow().getCharContent(true).toString();
    assertThat(simd).contains("static void scale(int lo, int hi, int N, float[] x, float s, float[] y)");
    // tanh written out in the kernel (VectorMathCode), not called: no method boundary for C2 to box vectors at
    assertThat(simd).contains("final FloatVector tanhA = ");
    assertThat(simd).doesNotContain("VectorMath");
    assertThat(simd).contains("for (; i < hi; i++) {\n      y[i] = KMath.tanh((x[i] * s));\n    }");
    // the row sum: its terms added in index order, read straight from x (no vector work to overlap)
    assertThat(simd).contains("static void total(int lo, int hi, int B, int N, float[] x, float[] y)");
    assertThat(simd).containsMatch("final float (s\\d+) = x\\[s\\d+\\];\n          t = t \\+ \\1;");
    // its first iterations one by one, up to where x's row starts a vector on a boundary; tanh's
    // loop (bound by its math) starts at its first iteration
    assertThat(method(simd, "static void total(")).containsMatch(
        "final int head = Alignment.start\\(k, end, s\\d+, SPECIES.length\\(\\)\\);\n\\s+for \\(; k < head; k\\+\\+\\) \\{");
    assertThat(method(simd, "static void scale(")).doesNotContain("Alignment");
    // four rows at a time (RowJam), each row's chain of adds its own, side by side in one loop,
    // then the rows left one by one
    assertThat(simd).contains("for (; b <= hi - 4; b += 4) {");
    assertThat(simd).containsMatch("final float (s\\d+) = x\\[s\\d+\\];\n          t_r3 = t_r3 \\+ \\1;\n        }");
    assertThat(simd).contains("for (; b < hi; b++) {");
    // a row kernel whose SIMD form runs rows four at a time is measured in calls of four rows or more,
    // so that the JIT warms the jammed path
    String launchers = c.generatedSourceFile("demo.OpsKernels").orElseThrow().getCharContent(true).toString();
    assertThat(launchers).containsMatch("forEachChunkChoosing\\(\"Ops.total[^;]*, scalar, 4\\);");
    assertThat(simd).doesNotContain("void strided(");
    String kernels = c.generatedSourceFile("demo.OpsKernels").orElseThrow().getCharContent(true).toString();
    // the scalar chunk first: the launcher runs it, or both as CpuExecutor chooses (the scalar form
    // until the SIMD one measures faster; the scalar one also the exact rerun of a chunk that goes
    // out of bounds); the kernel named with its source line
    assertThat(kernels).contains("final CpuExecutor.ChunkBody scalar = (chunk, lo, hi) -> {\n"
        + "      for (int i = lo; i < hi; i++) {\n"
        + "        y[i] = KMath.tanh((x[i] * s));\n"
        + "      }\n"
        + "    };\n"
        + "    if (Simd.ENABLED) {\n"
        + "      CpuExecutor.forEachChunkChoosing(\"Ops.scale (Ops.java:4)\", N, chunks, (chunk, lo, hi) -> OpsSimdKernels.scale(lo, hi, N, x, s, y), scalar, 64);\n"
        + "      return;\n"
        + "    }\n"
        + "    CpuExecutor.forEachChunk(\"Ops.scale (Ops.java:4)\", N, chunks, scalar);");
    String listing = text(c, StandardLocation.CLASS_OUTPUT, "META-INF/kiln/demo/Ops.ir.txt");
    assertThat(listing).contains("\n# SIMD forms of the CPU grid kernels (Vector API)\n\n"
        + "simd scale: yes, neighbouring workers as lanes\n"
        + "simd total: yes, 1 of 1 sequential loops as vectors, 4 rows at a time\n"
        + "simd strided: no, a read of x is not unit-stride in i\n");
  }

  @Test
  void reorderedSumsKeepAPartialSumPerLaneAndSaySo() throws IOException {
    Compilation c = compile("-Akiln.nvcc=none", "-Akiln.simd.sums=reorder", "--add-modules", "jdk.incubator.vector");
    String simd = c.generatedSourceFile("demo.OpsSimdKernels").orElseThrow().getCharContent(true).toString();
    assertThat(simd).contains("FloatVector tLanes = FloatVector.broadcast(SPECIES, -0f);");
    assertThat(simd).contains("t = t + tLanes.reduceLanes(VectorOperators.ADD);");
    assertThat(simd).doesNotContain("terms[lane]");
    assertThat(text(c, StandardLocation.CLASS_OUTPUT, "META-INF/kiln/demo/Ops.ir.txt"))
        .contains("simd total: yes, 1 of 1 sequential loops as vectors, 4 rows at a time; sums reordered (-Akiln.simd.sums=reorder)\n");
    // its floats are not the scalar form's, so its launcher never mixes the two: SIMD from the first
    // call; the other kernels' forms agree, and their launchers choose
    String kernels = c.generatedSourceFile("demo.OpsKernels").orElseThrow().getCharContent(true).toString();
    assertThat(kernels).contains("CpuExecutor.forEachChunk(\"Ops.total (Ops.java:");
    assertThat(kernels).doesNotContain("CpuExecutor.forEachChunkChoosing(\"Ops.total (");
    assertThat(kernels).contains("CpuExecutor.forEachChunkChoosing(\"Ops.scale (Ops.java:4)\"");
  }

  @Test
  void aDerivedGradientsOwnSumsStayExactUnderReorderSoItsLauncherChooses() throws IOException {
    JavaFileObject rows = JavaFileObjects.forSourceLines("demo.Rows",
        "package demo;",
        "import dev.kiln.*;",
        "public final class Rows {",
        "  @Operator public static void rowScale(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] x, @Shape(\"B\") float[] s,",
        "      @Out @Shape(\"B, N\") float[] y) {",
        "    for (@Parallel int b = 0; b < B; b++) for (int k = 0; k < N; k++) y[b * N + k] = x[b * N + k] * s[b];",
        "  }",
        "}");
    Compilation c = javac().withProcessors(new KilnProcessor())
        .withOptions("-Akiln.nvcc=none", "-Akiln.simd.sums=reorder", "--add-modules", "jdk.incubator.vector").compile(rows);
    assertThat(c).succeeded();
    String listing = text(c, StandardLocation.CLASS_OUTPUT, "META-INF/kiln/demo/Rows.ir.txt");
    // ds[b] = sum over k of dy * x: the gradient's own sum, sixteen partials in every form
    assertThat(listing).containsMatch("simd rowScaleGrad\\S*: yes, [^\n]*sequential loops as vectors");
    assertThat(listing).doesNotContain("sums reordered");
    String kernels = c.generatedSourceFile("demo.RowsKernels").orElseThrow().getCharContent(true).toString();
    assertThat(kernels).containsMatch("CpuExecutor.forEachChunkChoosing\\(\"Rows.rowScaleGrad");
    // the gradient's any-order sum (sixteen partials, side by side already) is not jammed with other
    // rows' (RowJam), so its kernel is measured in calls of one row
    assertThat(kernels).containsMatch("forEachChunkChoosing\\(\"Rows.rowScaleGrad[^;]*, scalar, 1\\);");
  }

  @Test
  void withoutTheVectorApiThereIsNoSimdForm() throws IOException {
    Compilation c = compile("-Akiln.nvcc=none");
    assertThat(c.generatedSourceFile("demo.OpsSimdKernels").isPresent()).isFalse();
    assertThat(c.generatedSourceFile("demo.OpsKernels").orElseThrow().getCharContent(true).toString())
        .doesNotContain("Simd");
    assertThat(text(c, StandardLocation.CLASS_OUTPUT, "META-INF/kiln/demo/Ops.ir.txt")).doesNotContain("# SIMD");
  }

  @Test
  void theOptionTurnsSimdFormsOff() throws IOException {
    Compilation c = compile("-Akiln.nvcc=none", "-Akiln.simd=false", "--add-modules", "jdk.incubator.vector");
    assertThat(c.generatedSourceFile("demo.OpsSimdKernels").isPresent()).isFalse();
    assertThat(c.generatedSourceFile("demo.OpsKernels").orElseThrow().getCharContent(true).toString())
        .doesNotContain("Simd");
  }

  private static final JavaFileObject ROWS = JavaFileObjects.forSourceLines("demo.RowOps",
      "package demo;",
      "import dev.kiln.*;",
      "public final class RowOps {",
      // exp in the sum and again in the stores: computed once, four rows at a time
      "  @Operator public static void softmax(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] x, @Out @Shape(\"B, N\") float[] y) {",
      "    for (@Parallel int b = 0; b < B; b++) {",
      "      float s = 0f; for (int k = 0; k < N; k++) s += KMath.exp(x[b * N + k]);",
      "      for (int k = 0; k < N; k++) y[b * N + k] = KMath.exp(x[b * N + k]) / s;",
      "    }",
      "  }",
      // the later loop's stores are guarded: nothing kept (an element the source never writes stays as it was)
      "  @Operator public static void guardedStore(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] x, @Out @Shape(\"B, N\") float[] y) {",
      "    for (@Parallel int b = 0; b < B; b++) {",
      "      float s = 0f; for (int k = 0; k < N; k++) s += KMath.exp(x[b * N + k]);",
      "      for (int k = 0; k < N; k++) { if (x[b * N + k] > 0f) y[b * N + k] = KMath.exp(x[b * N + k]) / s; }",
      "    }",
      "  }",
      // the later loop covers another range: nothing kept
      "  @Operator public static void otherRange(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] x, @Out @Shape(\"B, N\") float[] y) {",
      "    for (@Parallel int b = 0; b < B; b++) {",
      "      float s = 0f; for (int k = 1; k < N; k++) s += KMath.exp(x[b * N + k]);",
      "      for (int k = 0; k < N; k++) y[b * N + k] = KMath.exp(x[b * N + k]) / s;",
      "    }",
      "  }",
      // a loop bound that depends on the row: not four rows at a time
      "  @Operator public static void triangle(@Dim int B, @Shape(\"B, B\") float[] x, @Out @Shape(\"B\") float[] y) {",
      "    for (@Parallel int b = 0; b < B; b++) { float s = 0f; for (int k = 0; k < b; k++) s += x[b * B + k]; y[b] = s; }",
      "  }",
      "}");

  @Test
  void aCallIsKeptForALaterLoopOnlyWhereItIsSafeAndRowsJamOnlyWithRowFreeBounds() throws IOException {
    Compilation c = compileWithVectors(ROWS);
    String listing = text(c, StandardLocation.CLASS_OUTPUT, "META-INF/kiln/demo/RowOps.ir.txt");
    assertThat(listing).contains(
        "simd softmax: yes, 2 of 2 sequential loops as vectors, exp kept in y for a later loop, 4 rows at a time, "
            + "1 loop adds its sums after its vectors, from the terms it stores or loads\n");
    assertThat(listing).contains("simd guardedStore: yes, 2 of 2 sequential loops as vectors, 4 rows at a time\n");
    assertThat(listing).contains("simd otherRange: yes, 2 of 2 sequential loops as vectors, 4 rows at a time\n");
    assertThat(listing).contains("simd triangle: yes, 1 of 1 sequential loops as vectors\n");
    String simd = c.generatedSourceFile("demo.RowOpsSimdKernels").orElseThrow().getCharContent(true).toString();
    // the sum loop stores each exp into y; the output loop reads it back and divides
    assertThat(simd).contains("y, ");
    assertThat(simd).containsMatch("FloatVector [a-z0-9_]+ = FloatVector.fromArray\\(SPECIES, y, ");
    // the sum loop's vectors store each row's exps; the rows' sums then read them back, in index order
    assertThat(simd).containsMatch("(s[a-z0-9_]*) = \\1 \\+ y\\[");
  }

  private static final JavaFileObject NORM = JavaFileObjects.forSourceLines("demo.Norm",
      "package demo;",
      "import dev.kiln.*;",
      "public final class Norm {",
      "  @Operator public static void norm(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] x, @Shape(\"N\") float[] g,",
      "      @Out @Shape(\"B, N\") float[] y) {",
      "    for (@Parallel int b = 0; b < B; b++) {",
      "      float s = 0f; for (int n = 0; n < N; n++) s += x[b * N + n];",
      "      float m = s / N;",
      "      float v = 0f; for (int n = 0; n < N; n++) { float d = x[b * N + n] - m; v += d * d; }",
      "      for (int n = 0; n < N; n++) y[b * N + n] = (x[b * N + n] - m) * v * g[n];",
      "    }",
      "  }",
      "}");

  @Test
  void aRowKernelAllocatesItsScratchOnceAndStoresJammedRowsOneAtATime() throws IOException {
    Compilation c = compileWithVectors(NORM);
    String simd = c.generatedSourceFile("demo.NormSimdKernels").orElseThrow().getCharContent(true).toString();
    String method = method(simd, "static void norm(");
    // the squared deviations' blocks of terms: four rows' and the last rows', before any loop
    String prologue = method.substring(0, method.indexOf("int b = lo;"));
    assertThat(prologue).containsMatch("(final float\\[\\] v\\w*Terms\\w* = new float\\[16 \\* SPECIES.length\\(\\)\\];\\s*){5}");
    assertThat(method.substring(prologue.length())).doesNotContain("new float[");
    // the output loop: the four rows' vectors one row after another, sharing only g's loads, then the tail
    java.util.regex.Matcher start = java.util.regex.Pattern.compile("final int (start\\w*) = (n\\w*);").matcher(method);
    assertThat(start.find()).isTrue();
    String rest = method.substring(start.end());
    assertThat(rest.split(start.group(2) + " = " + start.group(1) + ";", -1)).hasLength(3 + 1);
    assertThat(rest.substring(rest.lastIndexOf(start.group(2) + " = " + start.group(1) + ";")))
        .contains("for (; " + start.group(2) + " < end");
    // g's loads (a piece more than loads): the four rows' vector before the boundary, each of the
    // four rows' loops, the last rows' vector before the boundary and their loop
    assertThat(method.split("FloatVector.fromArray\\(SPECIES, g, ", -1)).hasLength(1 + 4 + 1 + 1 + 1);
    assertThat(method).contains("// one vector from the first iteration, then the vectors from where they start on a boundary");
  }

  /**
   * An operator with {@code extra} unused float parameters and a row kernel whose loops are each
   * outlined (four vectorised loops), the first with two blocked in-order sums: eight term arrays
   * for four jammed rows. With 236 extra parameters the outlined loops take about 250 parameter
   * slots, more than the JVM's 255 with their term arrays (javac: "too many parameters").
   */
  private static JavaFileObject wide(int extra) {
    StringBuilder params = new StringBuilder();
    for (int i = 0; i < extra; i++) {
      params.append(", float p").append(i);
    }
    return JavaFileObjects.forSourceLines("demo.Wide",
        "package demo;",
        "import dev.kiln.*;",
        "public final class Wide {",
        "  @Operator public static void wide(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] x" + params + ",",
        "      @Out @Shape(\"B, N\") float[] y, @Out @Shape(\"B\") float[] z) {",
        "    for (@Parallel int b = 0; b < B; b++) {",
        "      float s = 0f; float t = 0f;",
        "      for (int n = 0; n < N; n++) { float d = x[b * N + n] * 3f; s += d * d; t += d * 0.5f; }",
        "      float u = 0f; for (int n = 0; n < N; n++) u += x[b * N + n] * s;",
        "      float v = 0f; for (int n = 0; n < N; n++) v += x[b * N + n] * t;",
        "      z[b] = t + u + v;",
        "      for (int n = 0; n < N; n++) y[b * N + n] = x[b * N + n] * s;",
        "    }",
        "  }",
        "}");
  }

  @Test
  void anOutlinedLoopKeepsItsScratchWhenPassingItWouldExceedTheJvmsParameterSlots() throws IOException {
    Compilation few = compileWithVectors(wide(2));
    String passed = few.generatedSourceFile("demo.WideSimdKernels").orElseThrow().getCharContent(true).toString();
    String loop = method(passed, "private static float[] wide$rows$loop0(");
    assertThat(loop).contains("float[] sTerms");
    assertThat(loop).doesNotContain("new float[16");

    // with its term arrays as parameters the method would not compile: compileWithVectors asserts it does
    Compilation many = compileWithVectors(wide(236));
    String kept = many.generatedSourceFile("demo.WideSimdKernels").orElseThrow().getCharContent(true).toString();
    String loop0 = method(kept, "private static float[] wide$rows$loop0(");
    assertThat(loop0).containsMatch("final float\\[\\] sTerms\\w* = new float\\[16 \\* SPECIES.length\\(\\)\\];");
  }
}
