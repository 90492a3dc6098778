package dev.kiln.processor.codegen.cuda;

import static com.google.common.truth.Truth.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Which workers get a CUDA row kernel ({@link RowKernelWriter}: a block a worker, its threads
 * sharing the worker's loops) or a column kernel (32 workers a block, 32 threads sharing each
 * worker's loops) and, for the others, the reason the source gives beside their kernel.
 * What the row kernels compute is checked against the plain Java on the emulated driver (tests
 * module: every operator of the suite, softmax's and layer norm's gradients among them).
 */
class RowKernelTest {
  private static GeneratedCuda generated;
  private static String cu;

  @BeforeAll
  static void compile() throws IOException {
    generated = GeneratedCuda.of("ir", "RowLoops");
    cu = generated.cu();
  }

  private static String kernel(String name) {
    return generated.kernel(name);
  }

  @Test
  void softmaxSharesItsThreeLoops() {
    String k = kernel("softmax");
    assertThat(k).startsWith("// Row kernel: one 1-D block");
    assertThat(k).contains("share the worker's 3 loops");
    assertThat(k).contains("for (long long w_ = blockIdx.x; w_ < (long long) B; w_ += gridDim.x)");
    assertThat(k).contains("mPart = kiln::block_reduce(mPart, shared_float, kiln::MaxOp<float>());");
    assertThat(k).contains("m = kiln::max(m, mPart);");
    assertThat(k).contains("sPart = kiln::block_reduce(sPart, shared_float, kiln::SumOp<float>());");
    assertThat(k).contains("s = (s + sPart);");
    assertThat(k).contains("k += (int) blockDim.x");
  }

  @Test
  void aLaneSumIsSharedAsOneLoopOverItsTerms() {
    String k = kernel("laneSoftmax");
    assertThat(k).startsWith("// Row kernel: one 1-D block");
    assertThat(k).contains("share the worker's 3 loops");
    assertThat(k).contains("sPart = kiln::block_reduce(sPart, shared_float, kiln::SumOp<float>());");
    assertThat(k).doesNotContain("j < 32");
    // not a sum of sums: the nest as written, one thread a worker
    String products = kernel("laneProducts");
    assertThat(cu).contains("// laneProducts: one thread a worker, not a row kernel: a loop makes fewer than 64 iterations");
    assertThat(products).contains("for (int j = 0; j < 16; j++)");
    assertThat(products).contains("k += 16");
  }

  @Test
  void softmaxReadsItsRowFromSharedMemoryAfterTheFirstLoop() {
    String k = kernel("softmax");
    assertThat(k).contains("// Rows of 'x' up to 8192 elements long are read from global memory once");
    assertThat(k).contains("__shared__ float row_x[8192];");
    assertThat(k).contains("const bool cached = (long long) (N) - (0) <= 8192;");
    assertThat(k).containsMatch("if \\(cached\\) row_x\\[k - 0\\] = t\\d+;");
    // the two later loops: the cache, or global memory for a longer row
    assertThat(k.split("\\(cached \\? row_x\\[k_", -1)).hasLength(3);
  }

  @Test
  void aCachedRowKernelHasAShortRowFormThatTheLauncherPicksByTheRowsLength() throws IOException {
    String k = kernel("softmax_short");
    assertThat(k).contains("// Short-row form: launched for rows of at most 2048 elements, 64 threads a row");
    assertThat(k).contains("__shared__ float row_x[2048];");
    assertThat(k).contains("__shared__ float shared_float[32];");
    assertThat(k).contains("const bool cached = (long long) (N) - (0) <= 2048;");
    // the long form keeps its 32 KB cache; a kernel without a cache has no short form
    assertThat(kernel("softmax")).contains("__shared__ float row_x[8192];");
    assertThat(cu).doesNotContain("countBelow_short");
    String launchers = generated.launchers();
    assertThat(launchers).contains("if ((long) N - (long) 0 <= 2048) {");
    assertThat(launchers).contains("\"softmax_short\").launchRows(stream, ");
    assertThat(launchers).contains("\"softmax\").launchReducing(stream, ");
  }

  @Test
  void aRowReadOnceOrWrittenIsNotCached() {
    // countBelow reads its row in one loop; columnNormalize walks columns; cumsum is one thread a row
    assertThat(kernel("countBelow")).doesNotContain("row_x");
    assertThat(kernel("columnNormalize")).doesNotContain("row_x");
    assertThat(kernel("cumsum")).doesNotContain("row_x");
  }

  @Test
  void seenSoFarBecomesTheBlocksFirstHit() {
    String k = kernel("firstMax");
    assertThat(k).startsWith("// Row kernel");
    assertThat(k).contains("first = kiln::block_reduce(first, shared_int, kiln::MinOp<int>());");
    assertThat(k).containsMatch("const bool seen\\w* = seen \\|\\| first < k\\w*;");
    assertThat(k).contains("break;");
  }

  @Test
  void integerDifferencesFoldFromZero() {
    String k = kernel("countBelow");
    assertThat(k).startsWith("// Row kernel");
    assertThat(k).containsMatch("int cPart = 0;");
    // int sums wrap as Java's: on the unsigned type
    assertThat(k).contains("cPart = ((int) ((unsigned int) cPart - (unsigned int) ");
    assertThat(k).contains("c = ((int) ((unsigned int) c + (unsigned int) cPart));");
  }

  @Test
  void aRunningSumStaysOneThreadAWorker() {
    assertThat(kernel("cumsum")).startsWith(
        "// cumsum: one thread a worker, not a row kernel: a loop uses acc before the loop ends");
  }

  @Test
  void aColumnWalkThatOnlyFoldsIsAColumnKernel() {
    String k = kernel("columnSum");
    assertThat(k).startsWith("// Column kernel: blocks of 32 workers (x) by 32 threads (y)");
    assertThat(k).contains("i += (int) blockDim.y");
    assertThat(k).contains("sPart = kiln::column_reduce(sPart, shared_float, kiln::SumOp<float>());");
    assertThat(k).contains("const long long last = (long long) N - 1;");
    assertThat(k).contains("const long long w_ = g_ + threadIdx.x < last ? g_ + threadIdx.x : last;");
  }

  @Test
  void aColumnWalkThatStoresStaysOneThreadAWorker() {
    assertThat(kernel("columnNormalize")).startsWith(
        "// columnNormalize: one thread a worker, not a row kernel: a read of x is not unit-stride in i");
  }

  @Test
  void aShortLoopStaysOneThreadAWorker() {
    assertThat(kernel("window")).startsWith(
        "// window: one thread a worker, not a row kernel: a loop makes fewer than 64 iterations");
  }
}
