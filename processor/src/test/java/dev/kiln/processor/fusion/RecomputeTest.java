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
 * Which temporaries a fused kernel's device form computes again where they are read ({@link
 * Recompute}), and that the CPU keeps them. That the recomputed kernels agree with the plain Java is
 * checked on the emulated driver (tests module: {@code Loops.centeredScaled} and the gradients of
 * softmax and layer norm among every operator of the suite).
 */
class RecomputeTest {
  private static String cu;
  private static String kernels;

  /** The tests module's operators (the ones the emulated driver runs): its row loops, and its fusion composites. */
  @BeforeAll
  static void compile() throws IOException {
    Compilation c = javac().withProcessors(new KilnProcessor()).withOptions("-Akiln.nvcc=off")
        .compile(JavaFileObjects.forResource("tests-ops/dev/kiln/tests/ops/RowLoops.java"),
            JavaFileObjects.forResource("tests-ops/dev/kiln/tests/fusion/Prims.java"),
            JavaFileObjects.forResource("tests-ops/dev/kiln/tests/fusion/Loops.java"));
    assertThat(c).succeeded();
    cu = text(c.generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/kiln/dev/kiln/tests/ops/RowLoops.cu"))
        + text(c.generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/kiln/dev/kiln/tests/fusion/Loops.cu"));
    kernels = text(c.generatedSourceFile("dev.kiln.tests.ops.RowLoopsKernels"))
        + text(c.generatedSourceFile("dev.kiln.tests.fusion.LoopsKernels"));
  }

  private static String text(java.util.Optional<javax.tools.JavaFileObject> file) throws IOException {
    return file.orElseThrow().getCharContent(true).toString();
  }

  /** The signature line of one CUDA kernel. */
  private static String signature(String name) {
    int start = cu.indexOf("extern \"C\" __global__ void " + name + "(");
    assertThat(start).isAtLeast(0);
    return cu.substring(start, cu.indexOf('\n', start));
  }

  private static String body(String name) {
    int start = cu.indexOf("extern \"C\" __global__ void " + name + "(");
    return cu.substring(start, cu.indexOf("\n}\n", start));
  }

  @Test
  void aRowThatCanBeComputedAgainIsNotStored() {
    assertThat(signature("centeredScaled_k0")).isEqualTo("extern \"C\" __global__ void centeredScaled_k0(int B, int N, "
        + "const float* __restrict__ x, float* __restrict__ y) {");
    // x[k] * s in both later loops (x read from the row kernel's shared copy): the sum of the row,
    // then the centred output
    assertThat(body("centeredScaled_k0")).containsMatch("s_\\d+Part = s_\\d+Part \\+ \\(t\\d+ \\* s\\);");
    assertThat(body("centeredScaled_k0")).containsMatch("y\\[t\\d+\\] = \\(\\(t\\d+ \\* s\\) - t\\d+\\);");
    // the loop that only stored it is gone
    assertThat(body("centeredScaled_k0").split("for \\(int ", -1)).hasLength(4);
  }

  @Test
  void theCpuKeepsItsRowPerWorker() {
    assertThat(kernels).contains("static void centeredScaled(");
    assertThat(kernels).containsMatch("float\\[\\] t = new float\\[");
  }

  @Test
  void theDeviceLauncherAllocatesNoTemporaryForIt() {
    int start = kernels.indexOf("public static void centeredScaled(CudaStream");
    assertThat(start).isAtLeast(0);
    String launcher = kernels.substring(start, kernels.indexOf("\n  }\n", start));
    assertThat(launcher).doesNotContain("temporaryFloats");
  }

  @Test
  void aValueThatNeedsTheIterationBeforeIsStored() {
    assertThat(signature("centeredCumsum_k0")).contains("float* __restrict__ t");
  }

  /** The device launcher of a composite, from its signature to its end. */
  private static String deviceLauncher(String name) {
    int start = kernels.indexOf("public static void " + name + "(CudaStream");
    assertThat(start).isAtLeast(0);
    return kernels.substring(start, kernels.indexOf("\n  }\n", start));
  }

  @Test
  void aTemporaryEachWorkerStoresBeforeReadingIsNotZeroFilled() {
    assertThat(deviceLauncher("centeredCumsum")).contains("temporaryFloats");
    assertThat(deviceLauncher("centeredCumsum")).doesNotContain(".zero()");
    assertThat(deviceLauncher("softmaxGrad")).doesNotContain(".zero()");
    // written by one kernel, read by the next: zero-filled as before
    assertThat(deviceLauncher("costlyMatvecGrad")).contains("x.zero()");
  }

  @Test
  void aFirstMaximumsShareIsRecomputedWhereItIsRead() {
    // adj$x$3, the first maximum's share, needs the loop's "seen so far": a search for the first
    // maximum before (FirstMatch) makes it a value of the index, computed again where dx is written
    String sig = signature("softmaxPlusOneGrad_k0");
    assertThat(sig).doesNotContain("adj$x$");
    String body = body("softmaxPlusOneGrad_k0");
    // the search needs only the maximum, so it joins the loop before it (SiblingLoops), which sums
    // -adj * exp(x - m) over the same range: one pass and one barrier chain fewer
    assertThat(body).containsMatch("adj_5Part = adj_5Part \\+ .*;\\n\\s*firstPart = kiln::min\\(firstPart, \\(\\(t\\d+ == m\\) \\? k\\w* : N\\)\\);");
    assertThat(body.split("for \\(int ", -1)).hasLength(6); // five loops over the row
    assertThat(body).containsMatch("\\(\\(t\\d+ == m\\) && \\(!\\(t\\d+ \\|\\| \\(first < j\\w+\\)\\)\\)\\) \\? t\\d+ : 0.0f\\)");
  }

  @Test
  void softmaxsGradientTakesNothingThroughItsMaximum() {
    // softmax is the same for every shift of its row maximum (ShiftInvariance): no sum of the
    // adjoint reaching it, no search for its first element; the maximum and the sum recomputed,
    // the sum of dy * y's terms, then dx
    String body = body("softmaxGrad_k0");
    assertThat(body).doesNotContain("first");
    assertThat(body.split("for \\(int ", -1)).hasLength(5); // four loops over the row
    assertThat(signature("softmaxGrad_k0")).doesNotContain("adj$x$");
  }

  @Test
  void theCpuKeepsItsSequentialFlag() {
    // the search is the device's form only: the CPU kernel carries "seen so far" as the source does
    assertThat(kernels).doesNotContain("_first");
    assertThat(kernels).containsMatch("seen = \\(seen \\|\\| t\\d+\\);");
  }
}
