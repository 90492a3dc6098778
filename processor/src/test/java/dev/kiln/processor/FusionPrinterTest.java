package dev.kiln.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.io.IOException;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A composite's DAG before fusion and its kernel after, as the processor prints them into the IR listing. */
class FusionPrinterTest {
  private static String ir;

  @BeforeAll
  static void compile() throws IOException {
    Compilation c = javac().withProcessors(new KilnProcessor()).withOptions("-Akiln.nvcc=off")
        .compile(JavaFileObjects.forResource("fusion/Ovl.java"));
    assertThat(c).succeededWithoutWarnings();
    ir = c.generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/kiln/fusion/Ovl.ir.txt").orElseThrow()
        .getCharContent(true).toString();
  }

  @Test
  void beforeFusionEveryCallIsANode() {
    assertThat(ir).contains(String.join("\n",
        "composite ovl(N, in x[2*N], in y[N], out out[2*N])",
        "  temp lo[N]",
        "  temp hi[N]",
        "  temp a[N]",
        "  temp b[N]",
        "  temp p[N]",
        "  split2#1 = split2(N, x, out lo, out hi)",
        "  add#1 = add(N, lo, y, out a)",
        "  add#2 = add(N, hi, y, out b)",
        "  mul#1 = mul(N, a, b, out p)",
        "  concat2#1 = concat2(N, a, p, out out)",
        "  fused into 1 kernel; temporaries allocated: none",
        ""));
  }

  @Test
  void afterFusionOneKernelReadsEachInputOnce() {
    int start = ir.indexOf("# kernel ovl_k0");
    assertThat(start).isAtLeast(0);
    assertThat(ir.substring(start)).isEqualTo(String.join("\n",
        "# kernel ovl_k0 fuses split2#1, add#1, add#2, mul#1, concat2#1",
        "operator ovl_k0 grid",
        "  param N: i32 dim",
        "  param x: in f32[2*N]",
        "  param y: in f32[N]",
        "  param out: out f32[2*N]",
        "  parallel i < N",
        "  %0 = load x[i]",
        "  %1 = load y[i]",
        "  %2 = add f32 %0, %1",
        "  store out[i] = %2",
        "  %3 = load x[i + N]",
        "  %4 = add f32 %3, %1",
        "  %5 = mul f32 %2, %4",
        "  store out[i + N] = %5",
        ""));
  }

  @Test
  void everyEdgeHasItsDecision() {
    assertThat(ir).contains("  edge split2#1 -> add#1 via lo: fused, inlined:");
    assertThat(ir).contains("  edge mul#1 -> concat2#1 via p: fused, inlined:");
  }
}
