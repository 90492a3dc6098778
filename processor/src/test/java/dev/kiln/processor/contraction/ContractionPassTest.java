package dev.kiln.processor.contraction;

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
 * The contraction pass on {@code contraction/Products.java}: which loops become GEMM leaves, with
 * which operands, transpositions, leading dimensions and epilogues (the {@code .ir.txt} listing),
 * which stay loops, and that {@code -Akiln.contractions=loops} keeps every product a loop.
 */
class ContractionPassTest {
  private static String listing;
  private static String kernels;

  @BeforeAll
  static void compile() throws IOException {
    Compilation c = javac().withProcessors(new KilnProcessor()).withOptions("-Akiln.nvcc=none")
        .compile(JavaFileObjects.forResource("contraction/Products.java"));
    assertThat(c).succeeded();
    listing = c.generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/kiln/contraction/Products.ir.txt").orElseThrow()
        .getCharContent(true).toString();
    kernels = c.generatedSourceFile("contraction.ProductsKernels").orElseThrow().getCharContent(true).toString();
  }

  private static String section(String op) {
    int at = listing.indexOf("contraction " + op + "\n");
    if (at < 0) {
      return null;
    }
    int end = listing.indexOf("  epilogue ", at);
    return listing.substring(at, listing.indexOf('\n', end) + 1);
  }

  @Test
  void aDenseLayerIsOneGemmWithItsBiasAndReluInTheEpilogue() {
    assertThat(section("denseRelu")).isEqualTo("contraction denseRelu\n"
        + "  gemm x * w -> product [B x K times K x N] lda=K ldb=N ldc=N\n"
        + "  epilogue denseRelu_epilogue\n");
    assertThat(listing).contains("operator denseRelu_epilogue grid");
    assertThat(kernels).contains("Gemm.sgemm(false, false, B, N, K, x, 0, Math.max(1, K), w, 0, Math.max(1, N), 0f, product, 0, Math.max(1, N));");
  }

  @Test
  void transposedOperandsOfEitherSideAreFoundAndTheProductIsWrittenDirectly() {
    assertThat(section("matmulTT")).isEqualTo("contraction matmulTT\n"
        + "  gemm a^T * b^T -> c [M x K times K x N, a transposed, b transposed] lda=M ldb=K ldc=N\n"
        + "  epilogue none\n");
    assertThat(kernels).contains("Gemm.dgemm(true, true, M, N, K, a, 0, Math.max(1, M), b, 0, Math.max(1, K), 0.0, product, 0, Math.max(1, N));");
  }

  @Test
  void lstmGatesAreTwoProductsIntoOneBufferAndATransposedStoreIsAnEpilogue() {
    assertThat(section("gatesT")).isEqualTo("contraction gatesT\n"
        + "  gemm x * wx -> product [B x I times I x H] lda=I ldb=H ldc=H\n"
        + "  gemm h * wh -> product [B x H times H x H] lda=H ldb=H ldc=H\n"
        + "  epilogue gatesT_epilogue\n");
    assertThat(kernels).contains("Gemm.sgemm(false, false, B, H, I, x, 0, Math.max(1, I), wx, 0, Math.max(1, H), 0f, product, 0, Math.max(1, H));");
    assertThat(kernels).contains("Gemm.sgemm(false, false, B, H, H, h, 0, Math.max(1, H), wh, 0, Math.max(1, H), 1f, product, 0, Math.max(1, H));");
  }

  @Test
  void anOuterGridDimensionReadByBothOperandsIsABatch() {
    assertThat(section("batched")).isEqualTo("contraction batched\n"
        + "  gemm a * b -> c [Q x M x K times K x N] lda=K ldb=N ldc=N strides=K*M,K*N,M*N\n"
        + "  epilogue none\n");
  }

  @Test
  void offsetsComeFromTheLoopStartAndTheReadsConstants() {
    assertThat(section("window")).isEqualTo("contraction window\n"
        + "  gemm a * b -> c [M x K - 1 times K - 1 x N] lda=K ldb=2*N ldc=N aOffset=1 bOffset=3*N\n"
        + "  epilogue none\n");
  }

  @Test
  void aMaskedScaledTermIsAGemmOfAnOperandItsPrologueComputes() {
    assertThat(section("lowerMasked")).isEqualTo("contraction lowerMasked\n"
        + "  gemm operand * b -> y [M x K times K x N] lda=K ldb=N ldc=N\n"
        + "  prologue lowerMasked_prologue -> operand [M, K]\n"
        + "  epilogue none\n");
    // the prologue: the mask and the scale over [M, K], the guarded read kept under its mask
    assertThat(listing).contains("operator lowerMasked_prologue grid\n");
    assertThat(listing).containsMatch("(?s)operator lowerMasked_prologue grid.*parallel m < M\n  parallel k < K\n"
        + ".*load a\\[m, k\\] if %0\n.*select f32 %0, %2, 0.0f\n  store operand\\[m, k\\] = %3\n");
    // run only where a worker exists (with none the loop reads nothing), then the product
    assertThat(kernels).contains("if (M > 0 && N > 0) {\n        lowerMasked_prologue(M, K, N, a, s, b, y, operand);");
    assertThat(kernels).contains("Gemm.sgemm(false, false, M, N, K, operand, 0, Math.max(1, K), b, 0, Math.max(1, N), 0f, product, 0, Math.max(1, N));");
  }

  @Test
  void anOperandReadDownItsColumnsIsLaidOutAsReadAndTransposed() {
    assertThat(section("upperMaskedT")).isEqualTo("contraction upperMaskedT\n"
        + "  gemm operand^T * b -> y [M x K times K x N, operand transposed] lda=M ldb=N ldc=N\n"
        + "  prologue upperMaskedT_prologue -> operand [K, M]\n"
        + "  epilogue none\n");
  }

  @Test
  void aSecondSumInTheSameWorkerIsASecondGemmOfTheEpilogue() {
    assertThat(section("twoSums")).isEqualTo("contraction twoSums\n"
        + "  gemm a * b -> y [M x K times K x N] lda=K ldb=N ldc=N\n"
        + "  epilogue twoSums_epilogue\n");
    assertThat(section("twoSums_epilogue")).isEqualTo("contraction twoSums_epilogue\n"
        + "  gemm c * d -> z [M x K times K x N] lda=K ldb=N ldc=N\n"
        + "  epilogue none\n");
    // the outer launcher calls the epilogue's own launcher, which runs the second product
    assertThat(kernels).contains("Gemm.sgemm(false, false, M, N, K, c, 0, Math.max(1, K), d, 0, Math.max(1, N), 0f, product, 0, Math.max(1, N));");
    assertThat(kernels).contains("twoSums_epilogue(M, K, N, a, b, c, d, y, z);");
  }

  @Test
  void aNestedProductReadsTheOperandAnEarlierPrologueWrote() {
    assertThat(section("maskedBoth")).isEqualTo("contraction maskedBoth\n"
        + "  gemm operand * u -> du [M x M times M x N] lda=M ldb=N ldc=N\n"
        + "  prologue maskedBoth_prologue -> operand [M, M]\n"
        + "  epilogue maskedBoth_epilogue\n");
    // the second sum's operand is the first's, transposed: no second prologue
    assertThat(section("maskedBoth_epilogue")).isEqualTo("contraction maskedBoth_epilogue\n"
        + "  gemm operand^T * w -> dw [M x M times M x N, operand transposed] lda=M ldb=N ldc=N\n"
        + "  epilogue none\n");
    assertThat(listing).doesNotContain("maskedBoth_prologue2");
    assertThat(kernels).contains("maskedBoth_epilogue(M, N, g, u, w, du, dw, operand);");
    assertThat(kernels).contains("maskedBoth_epilogue(stream, M, N, g, u, w, du, dw, operand);");
  }

  @Test
  void theLoopsOptionKeepsEveryProductALoop() throws IOException {
    Compilation c = javac().withProcessors(new KilnProcessor()).withOptions("-Akiln.nvcc=none", "-Akiln.contractions=loops")
        .compile(JavaFileObjects.forResource("contraction/Products.java"));
    assertThat(c).succeeded();
    String loops = c.generatedSourceFile("contraction.ProductsKernels").orElseThrow().getCharContent(true).toString();
    assertThat(loops).doesNotContain("Gemm.");
    assertThat(loops).doesNotContain("_epilogue");
    assertThat(c.generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/kiln/contraction/Products.ir.txt").orElseThrow()
        .getCharContent(true).toString()).doesNotContain("contraction denseRelu");
  }

  @Test
  void nearMissesStayLoops() {
    for (String op : new String[] {"reversed", "scaled", "band", "strided", "partialUsed"}) {
      assertThat(section(op)).isNull();
    }
  }
}
