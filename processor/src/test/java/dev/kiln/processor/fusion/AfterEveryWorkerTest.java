package dev.kiln.processor.fusion;

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
 * A total over all workers takes the scalar calls that read it as statements after every worker
 * ({@link AfterEveryWorker}); other readers start a new kernel. The listing, the CPU kernel and the
 * CUDA kernels show where those statements run.
 */
class AfterEveryWorkerTest {
  private static Compilation compilation;
  private static String listing;

  @BeforeAll
  static void compile() throws IOException {
    compilation = javac().withProcessors(new KilnProcessor()).withOptions("-Akiln.nvcc=off")
        .compile(JavaFileObjects.forResource("fusion/Totals.java"));
    assertThat(compilation).succeeded();
    listing = text(StandardLocation.CLASS_OUTPUT, "META-INF/kiln/fusion/Totals.ir.txt");
  }

  private static String text(StandardLocation where, String path) throws IOException {
    return compilation.generatedFile(where, path).orElseThrow().getCharContent(true).toString();
  }

  private static String section(String from) {
    int at = listing.indexOf(from);
    assertThat(at).isAtLeast(0);
    int end = listing.indexOf("\ncomposite ", at + 1);
    return end < 0 ? listing.substring(at) : listing.substring(at, end);
  }

  @Test
  void theRootOfTheMeanRunsAfterEveryWorker() {
    String rms = section("composite rms(");
    assertThat(rms).contains("fused into 1 kernel; temporaries allocated: s");
    assertThat(rms).contains("edge sumSquares#1 -> rootMean#1 via s: fused, one kernel: 's' is a @Reduce over all its"
        + " workers, so rootMean#1 runs once after every worker has added to it and the partial totals are combined");
    assertThat(rms).contains("# kernel rms_k0 fuses sumSquares#1, rootMean#1");
    assertThat(rms).containsMatch("(?s)accumulate \\+ s\\[0\\] <- %\\d+\n  after every worker \\{\n    %\\d+ = load s\\[0\\]\n"
        + ".*call sqrt f64.*\n    store out\\[0\\] = %\\d+\n  \\}");
  }

  @Test
  void readersAtAnIndexFromDataOrWithAGridStartANewKernel() {
    String picked = section("composite picked(");
    assertThat(picked).contains("fused into 2 kernels");
    assertThat(picked).contains("kernel picked_k1 starts at pick#1: it did not join the kernel before, the kernel"
        + " before accumulates a @Reduce result and takes no more calls");
    assertThat(picked).doesNotContain("after every worker {");
    String normalised = section("composite normalised(");
    assertThat(normalised).contains("fused into 2 kernels");
    assertThat(normalised).doesNotContain("after every worker {");
  }

  @Test
  void theCpuKernelRunsThemOnceTheChunksTotalsAreFolded() throws IOException {
    String java = text(StandardLocation.SOURCE_OUTPUT, "fusion/TotalsKernels.java");
    int kernel = java.indexOf("public static void rms_k0(int N, float[] x, float[] out, float[] s)");
    assertThat(kernel).isAtLeast(0);
    String body = java.substring(kernel, java.indexOf("\n  }\n", kernel));
    int fold = body.indexOf("Partials.foldInto(s, sPartials, ReduceOp.SUM);");
    int after = body.indexOf("// after every worker: the totals are complete");
    assertThat(fold).isAtLeast(0);
    assertThat(after).isGreaterThan(fold);
    assertThat(body.substring(after)).contains("out[0] = ((float) Math.sqrt(((double) (s[0] / ((float) N)))));");
  }

  @Test
  void theCudaKernelsRunThemWhereTheTotalIsStored() throws IOException {
    String cu = text(StandardLocation.CLASS_OUTPUT, "META-INF/kiln/fusion/Totals.cu");
    String reducing = cu.substring(cu.indexOf("void rms_k0("), cu.indexOf("void rms_k0_fold("));
    assertThat(reducing).containsMatch("(?s)if \\(threadIdx.x == 0 && segments == 1\\) \\{\n\\s*// after every worker"
        + "[^\n]*\n\\s*out\\[0LL\\] = ");
    String fold = cu.substring(cu.indexOf("void rms_k0_fold("));
    fold = fold.substring(0, fold.indexOf("\n}\n"));
    assertThat(fold).containsMatch("(?s)s\\[0LL\\] = s_acc;\n\\s*// after every worker[^\n]*\n\\s*out\\[0LL\\] = ");
  }
}
