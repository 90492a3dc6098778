package dev.kiln.processor.codegen.cuda;

import static com.google.common.truth.Truth.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Which one-dimensional workers get a CUDA vector kernel ({@link VectorKernelWriter}: four workers
 * a thread, each array moved 16 bytes at a time) and what their launchers give them. What the
 * vector kernels compute is checked against the plain Java on the emulated driver (tests module:
 * every grid operator of the suite, at sizes that are and are not multiples of four, and the CUDA
 * fuzzer's operators).
 */
class VectorKernelTest {
  private static GeneratedCuda generated;
  private static String cu;

  @BeforeAll
  static void compile() throws IOException {
    generated = GeneratedCuda.of("ir", "VectorLoops");
    cu = generated.cu();
  }

  private static String kernel(String name) {
    return generated.kernel(name);
  }

  @Test
  void geluMovesFourFloatsAtATime() {
    String k = kernel("gelu");
    assertThat(k).startsWith("// Vector kernel: four workers a thread");
    assertThat(k).contains("if (kiln::aligned16(x) && kiln::aligned16(y)) {");
    assertThat(k).contains("const unsigned i_groups = i_end / 4U;");
    assertThat(k).contains("const float4 x_4 = kiln::load4(x, i_g);");
    assertThat(k).contains("float4 y_4;");
    for (String lane : new String[] {"x", "y", "z", "w"}) {
      assertThat(k).containsMatch("const float v\\d* = x_4\\." + lane + ";");
      assertThat(k).containsMatch("y_4\\." + lane + " = \\(\\(0\\.5f \\* v\\d*\\) \\* \\(1\\.0f \\+ kiln::erf");
    }
    assertThat(k).contains("kiln::store4(y, i_g, y_4);");
    // the last one to three workers, and every worker when an array is not aligned: one at a time
    assertThat(k).contains("const unsigned i_rest = i_end - 4U * i_groups;");
    assertThat(k).contains("} else {");
    assertThat(k.split("= x\\[t\\d*\\];", -1)).hasLength(3);
  }

  @Test
  void anElementEveryWorkerReadsStaysAScalarRead() {
    String k = kernel("scaleShift");
    assertThat(k).startsWith("// Vector kernel");
    assertThat(k).contains("kiln::aligned16(x) && kiln::aligned16(k) && kiln::aligned16(y) && kiln::aligned16(twice)");
    assertThat(k).contains("const int4 k_4 = kiln::load4(k, i_g);");
    assertThat(k).contains("int4 twice_4;");
    assertThat(k).contains("kiln::store4(twice, i_g, twice_4);");
    assertThat(k).contains("shift[0LL]");
    assertThat(k).doesNotContain("aligned16(shift)");
  }

  @Test
  void otherWorkersKeepOneThreadEachAndTheSourceSaysWhy() {
    for (String name : new String[] {"shifted", "positive", "square", "addRows"}) {
      assertThat(kernel(name)).doesNotContain("Vector kernel");
      assertThat(kernel(name)).doesNotContain("load4");
    }
    assertThat(cu).contains("// shifted: one thread a worker, not a vector kernel: it reads 'x' at another index than the"
        + " worker's\n");
    assertThat(cu).contains("// positive: one thread a worker, not a vector kernel: it stores into 'y' under a condition\n");
    assertThat(cu).contains("// square: one thread a worker, not a vector kernel: 'y' holds doubles, not 4-byte floats or"
        + " ints\n");
    assertThat(cu).doesNotContain("// addRows: one thread a worker");
  }

  @Test
  void mapKernelsOnFourByteElementsMoveFourAtATimeBroadcastingLengthOne() {
    String k = kernel("scaled_map");
    assertThat(k).contains("if (kiln::aligned16(out) && (x_length == 1 || kiln::aligned16(x)) && (k_length == 1 || kiln::aligned16(k))) {");
    assertThat(k).contains("const float4 x_4 = x_length == 1 ? kiln::splat4(x[0]) : kiln::load4(x, g);");
    assertThat(k).contains("const int4 k_4 = k_length == 1 ? kiln::splat4(k[0]) : kiln::load4(k, g);");
    assertThat(k).contains("out_4.w = VectorLoops_scaled(x_4.w, k_4.w);");
    assertThat(k).contains("kiln::store4(out, g, out_4);");
    assertThat(kernel("twice_map")).doesNotContain("load4");
    assertThat(generated.launchers()).contains("\"scaled_map\").launchMap(stream, (n + 3L) / 4L, n, ");
    assertThat(generated.launchers()).contains("\"twice_map\").launchMap(stream, n, n, ");
  }

  @Test
  void theLauncherGivesAVectorKernelAQuarterOfTheThreads() {
    assertThat(generated.launchers()).contains("\"gelu\").launchGrid(stream, new long[] {(N + 3L) / 4L}, N, x, y);");
    assertThat(generated.launchers()).contains("\"shifted\").launchGrid(stream, new long[] {N}, ");
  }
}
