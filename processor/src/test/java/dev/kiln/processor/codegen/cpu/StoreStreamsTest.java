package dev.kiln.processor.codegen.cpu;

import static com.google.common.truth.Truth.assertThat;

import com.google.testing.compile.JavaFileObjects;
import java.io.IOException;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * Which row kernels' SIMD forms run each store as a loop of its own ({@link StoreStreams}): a
 * concatenation's and a split's, in the source's order, up to rows of 2048 workers; not a kernel
 * whose arrays are each accessed at one place in a row, nor one that may run in place, nor one that
 * calls exp, nor one whose stores computed apart would more than double its operations, nor one
 * whose two forms together would be too large a method, nor a one-dimensional grid.
 */
class StoreStreamsTest {
  private static final JavaFileObject OPS = JavaFileObjects.forSourceLines("demo.Ops",
      "package demo;",
      "import dev.kiln.*;",
      "public final class Ops {",
      "  @Operator public static void concat(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] a, @Shape(\"B, N\") float[] b,",
      "      @Out @Shape(\"B, 2*N\") float[] out) {",
      "    for (@Parallel int r = 0; r < B; r++) for (@Parallel int n = 0; n < N; n++) {",
      "      out[r * 2 * N + n] = a[r * N + n] * 2f;",
      "      out[r * 2 * N + N + n] = b[r * N + n] + 1f;",
      "    }",
      "  }",
      "  @Operator public static void pairs(@Dim int B, @Dim int N, @Shape(\"B, N + 1\") float[] a,",
      "      @Out @Shape(\"B, N\") float[] s, @Out @Shape(\"B, N\") float[] t) {",
      "    for (@Parallel int r = 0; r < B; r++) for (@Parallel int n = 0; n < N; n++) {",
      "      s[r * N + n] = a[r * (N + 1) + n] * 2f;",
      "      t[r * N + n] = a[r * (N + 1) + n] + 1f;",
      "    }",
      "  }",
      "  @Operator public static void inPlace(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] x, @Out @Shape(\"B, 2*N\") float[] z,",
      "      @Out @Shape(\"B, N\") float[] y) {",
      "    for (@Parallel int r = 0; r < B; r++) for (@Parallel int n = 0; n < N; n++) {",
      "      z[r * 2 * N + n] = x[r * N + n] + 1f;",
      "      z[r * 2 * N + N + n] = x[r * N + n] - 1f;",
      "      y[r * N + n] = x[r * N + n] * 2f;",
      "    }",
      "  }",
      "  @Operator public static void heavy(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] a, @Out @Shape(\"B, 2*N\") float[] out) {",
      "    for (@Parallel int r = 0; r < B; r++) for (@Parallel int n = 0; n < N; n++) {",
      "      out[r * 2 * N + n] = a[r * N + n];",
      "      out[r * 2 * N + N + n] = KMath.exp(a[r * N + n]);",
      "    }",
      "  }",
      "  @Operator public static void shared(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] a, @Out @Shape(\"B, 3*N\") float[] out) {",
      "    for (@Parallel int r = 0; r < B; r++) for (@Parallel int n = 0; n < N; n++) {",
      "      float v = a[r * N + n];",
      "      float p = (((((v * v + v) * v + v) * v + v) * v + v) * v + v) * v + v;",
      "      out[r * 3 * N + n] = p;",
      "      out[r * 3 * N + N + n] = p + 1f;",
      "      out[r * 3 * N + 2 * N + n] = p + 2f;",
      "    }",
      "  }",
      "  @Operator public static void large(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] a, @Shape(\"B, N\") float[] b,",
      "      @Shape(\"B, N\") float[] c, @Out @Shape(\"B, 3*N\") float[] out) {",
      "    for (@Parallel int r = 0; r < B; r++) for (@Parallel int n = 0; n < N; n++) {",
      "      float u = a[r * N + n], v = b[r * N + n], w = c[r * N + n];",
      "      out[r * 3 * N + n] = ((((((((u * 0.5f + 1f) * u + 2f) * u + 3f) * u + 4f) * u + 5f) * u + 6f) * u + 7f) * u + 8f);",
      "      out[r * 3 * N + N + n] = ((((((((v * 0.5f + 1f) * v + 2f) * v + 3f) * v + 4f) * v + 5f) * v + 6f) * v + 7f) * v + 8f);",
      "      out[r * 3 * N + 2 * N + n] = ((((((((w * 0.5f + 1f) * w + 2f) * w + 3f) * w + 4f) * w + 5f) * w + 6f) * w + 7f) * w + 8f);",
      "    }",
      "  }",
      "  @Operator public static void flat(@Dim int N, @Shape(\"N\") float[] a, @Out @Shape(\"2*N\") float[] out) {",
      "    for (@Parallel int i = 0; i < N; i++) {",
      "      out[i] = a[i] * 2f;",
      "      out[N + i] = a[i] + 1f;",
      "    }",
      "  }",
      "}");

  private static String simdKernels() throws IOException {
    return GeneratedCode.simdKernels(OPS);
  }

  @Test
  void aConcatenationRunsItsStoresInOrderAsLoopsOfTheirOwnInRowsOfAtMost2048() throws IOException {
    String concat = GeneratedCode.simdMethod(simdKernels(), "concat");
    assertThat(concat).contains("      if (N <= 2048) {\n"
        + "        // a loop a store, each array read and written in address order (StoreStreams)\n"
        + "        int n = 0;\n");
    String split = concat.substring(0, concat.indexOf("} else {"));
    // each store's vector stores: the one before the aligned start and the loop's; the first store's first
    assertThat(split.split("intoArray\\(out, ", -1)).hasLength(2 * 2 + 1);
    assertThat(split.indexOf("fromArray(SPECIES, a, ")).isLessThan(split.indexOf("fromArray(SPECIES, b, "));
    assertThat(split.indexOf("n = 0;\n", split.indexOf("fromArray(SPECIES, a, ")))
        .isLessThan(split.indexOf("fromArray(SPECIES, b, "));
    String joint = concat.substring(concat.indexOf("} else {"));
    assertThat(joint).contains("fromArray(SPECIES, a, ");
    assertThat(joint).contains("fromArray(SPECIES, b, ");
  }

  @Test
  void kernelsWhoseOrderCouldShowOrThatWouldNotGainKeepOneLoop() throws IOException {
    String all = simdKernels();
    for (String name : new String[] {"pairs", "inPlace", "heavy", "shared", "large", "flat"}) {
      assertThat(GeneratedCode.simdMethod(all, name)).doesNotContain("StoreStreams");
    }
  }
}
