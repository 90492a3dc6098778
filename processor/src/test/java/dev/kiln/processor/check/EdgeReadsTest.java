package dev.kiln.processor.check;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import dev.kiln.processor.KilnProcessor;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * Edge reads that KILN047 must not refuse: guarded by {@code ?:} or {@code if}, inside loops that
 * may run no iteration or run under a condition, or in range (the negative cases, one file each,
 * are under {@code src/test/resources/negative}).
 */
class EdgeReadsTest {
  private static final JavaFileObject OPS = JavaFileObjects.forSourceLines("demo.Edges",
      "package demo;",
      "import dev.kiln.*;",
      "public final class Edges {",
      "  @Operator public static void ternary(@Dim int N, @Shape(\"N\") float[] x, @Out @Shape(\"N\") float[] y) {",
      "    for (@Parallel int i = 0; i < N; i++) y[i] = (i > 0 ? x[i - 1] : 0f) + (i + 1 < N ? x[i + 1] : 0f);",
      "  }",
      "  @Operator public static void guarded(@Dim int N, @Shape(\"N\") float[] x, @Out @Shape(\"N\") float[] y) {",
      "    for (@Parallel int i = 0; i < N; i++) { float v = x[i]; if (i > 0) { v += x[i - 1]; } y[i] = v; }",
      "  }",
      "  @Operator public static void maybeEmptyLoop(@Dim int N, @Shape(\"N\") float[] x, @Out @Shape(\"N\") float[] y) {",
      "    for (@Parallel int i = 0; i < N; i++) { float s = 0f; for (int k = 1; k < i; k++) s += x[k - 1]; y[i] = s; }",
      "  }",
      "  @Operator public static void loopUnderCondition(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] x,",
      "      @Out @Shape(\"B\") float[] y) {",
      "    for (@Parallel int b = 0; b < B; b++) {",
      "      float s = 0f;",
      "      if (b > 0) { for (int k = 0; k < N; k++) s += x[(b - 1) * N + k]; }",
      "      y[b] = s;",
      "    }",
      "  }",
      "  @Operator public static void inRange(@Dim int N, @Shape(\"N + 2\") float[] x, @Shape(\"N, 3\") float[] w,",
      "      @Out @Shape(\"N\") float[] y) {",
      "    for (@Parallel int i = 0; i < N; i++) y[i] = x[i] + x[i + 2] + w[i * 3 + 2];",
      "  }",
      "}");

  @Test
  void guardedAndInRangeEdgeReadsCompile() {
    Compilation c = javac().withProcessors(new KilnProcessor()).withOptions("-Akiln.nvcc=none").compile(OPS);
    assertThat(c).succeededWithoutWarnings();
  }
}
