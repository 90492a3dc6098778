package dev.kiln.processor.codegen.cpu;

import static com.google.common.truth.Truth.assertThat;

import com.google.testing.compile.JavaFileObjects;
import java.io.IOException;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * Which values a vectorised loop computes once before it ({@link LoopInvariants}): a row's value
 * read inside the loop from an array whose length the grid's extent provably fits ({@link
 * SafeLoads}), with what the loop computes from it; not a read that might fall outside its array
 * (the plain method throws only if the loop runs), nor one the loop's own stores may change.
 */
class LoopInvariantsTest {
  private static final JavaFileObject OPS = JavaFileObjects.forSourceLines("demo.Ops",
      "package demo;",
      "import dev.kiln.*;",
      "public final class Ops {",
      "  @Operator public static void scaled(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] x, @Shape(\"B\") float[] v,",
      "      @Out @Shape(\"B, N\") float[] y) {",
      "    for (@Parallel int b = 0; b < B; b++) {",
      "      for (int k = 0; k < N; k++) y[b * N + k] = x[b * N + k] * KMath.rsqrt(v[b] / N + 1e-5f);",
      "    }",
      "  }",
      "  @Operator public static void mismatched(@Dim int B, @Dim int N, @Shape(\"B, N\") float[] x, @Shape(\"N\") float[] w,",
      "      @Out @Shape(\"B, N\") float[] y) {",
      "    for (@Parallel int b = 0; b < B; b++) {",
      "      for (int k = 0; k < N; k++) y[b * N + k] = x[b * N + k] * KMath.rsqrt(w[b] / N + 1e-5f);",
      "    }",
      "  }",
      "}");

  private static String simdKernels() throws IOException {
    return GeneratedCode.simdKernels(OPS);
  }

  /** The part of {@code method} from its vector loop on (the vectors and the last iterations). */
  private static String fromTheVectorLoop(String method) {
    return method.substring(method.indexOf("for (; k"));
  }

  @Test
  void aRowsValueReadInsideTheLoopFromAnArrayTheGridFitsIsComputedOnceBeforeIt() throws IOException {
    String scaled = GeneratedCode.simdMethod(simdKernels(), "scaled");
    assertThat(scaled).contains("= v[b];");
    assertThat(scaled).contains("KMath.rsqrt(");
    assertThat(fromTheVectorLoop(scaled)).doesNotContain("v[b]");
    assertThat(fromTheVectorLoop(scaled)).doesNotContain("KMath.rsqrt(");
  }

  @Test
  void aReadThatMightFallOutsideItsArrayStaysInTheLoop() throws IOException {
    String mismatched = GeneratedCode.simdMethod(simdKernels(), "mismatched");
    assertThat(fromTheVectorLoop(mismatched)).contains("w[b]");
  }
}
