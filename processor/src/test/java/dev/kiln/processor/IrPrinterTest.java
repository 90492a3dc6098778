package dev.kiln.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.io.IOException;
import javax.tools.JavaFileObject;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The printed IR, as the processor writes it to META-INF/kiln: the front end's output as text. */
class IrPrinterTest {
  private static String ir;

  @BeforeAll
  static void compile() throws IOException {
    Compilation c = javac().withProcessors(new KilnProcessor()).compile(JavaFileObjects.forResource("ir/Cells.java"));
    assertThat(c).succeededWithoutWarnings();
    JavaFileObject file = c.generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/kiln/ir/Cells.ir.txt").orElseThrow();
    ir = file.getCharContent(true).toString();
  }

  private static String operator(String name) {
    int start = ir.indexOf("operator " + name + " ");
    assertThat(start).isAtLeast(0);
    int end = ir.indexOf("\noperator ", start + 1);
    return ir.substring(start, end < 0 ? ir.length() : end).strip() + "\n";
  }

  @Test
  void saxpyIsOneLoadPerInputAndOneStore() {
    assertThat(operator("saxpy")).isEqualTo(String.join("\n",
        "operator saxpy grid",
        "  param N: i32 dim",
        "  param a: f32",
        "  param x: in f32[N]",
        "  param y: in f32[N]",
        "  param z: out f32[N]",
        "  parallel i < N",
        "  %0 = load x[i]",
        "  %1 = mul f32 a, %0",
        "  %2 = load y[i]",
        "  %3 = add f32 %1, %2",
        "  store z[i] = %3",
        ""));
  }

  @Test
  void flatIndicesAreReadBackAgainstTheShape() {
    String lstm = operator("lstmCell");
    assertThat(lstm).contains("%i = load gates[b, h]\n");
    assertThat(lstm).contains("%j = load gates[b, h + H]\n");
    assertThat(lstm).contains("%f = load gates[b, h + 2*H]\n");
    assertThat(lstm).contains("%o = load gates[b, h + 3*H]\n");
    assertThat(lstm).contains("load c[b, h]\n");
    assertThat(lstm).contains("store cNext[b, h] = %cn\n");
  }

  @Test
  void elementwiseCallsAreInlinedAndShared() {
    String lstm = operator("lstmCell");
    assertThat(lstm).doesNotContain("sigmoid");
    // sigmoid(i), sigmoid(f + forgetBias), sigmoid(o): three exps besides none for tanh
    assertThat(lstm.split("call exp f32", -1).length - 1).isEqualTo(3);
    // tanh(cn) and tanh(j)
    assertThat(lstm.split("call tanh f32", -1).length - 1).isEqualTo(2);
  }

  @Test
  void transposeWritesTheSwappedPattern() {
    String t = operator("transpose");
    assertThat(t).contains("load x[r, c]\n");
    assertThat(t).contains("store y[c, r] = ");
  }

  @Test
  void sequentialLoopsCarryTheirAccumulators() {
    String m = operator("matvec");
    assertThat(m).contains("loop k in [0, K) carry (acc = 0.0f) {\n");
    assertThat(m).contains("load w[m, k]");
    assertThat(m).contains("load x[k]");
    assertThat(m).contains("next acc = %acc");
    assertThat(m).contains("} -> acc_2\n  store y[m] = acc_2\n");
  }

  @Test
  void boundaryReadsAreGuarded() {
    String b = operator("blur");
    assertThat(b).contains("  %0 = gt i32 i, 0\n  %1 = load x[i - 1] if %0\n");
    assertThat(b).containsMatch("%left = select f32 %\\d+, %\\d+, 0.0f");
  }

  @Test
  void reductionsPrintTheirOperator() {
    assertThat(operator("rowMax")).contains("  param m: reduce f32[B]\n");
    assertThat(operator("rowMax")).containsMatch("accumulate max m\\[b\\] <- %\\d+\n");
  }

  @Test
  void elementwiseOperatorsPrintTheirResult() {
    assertThat(operator("sigmoid")).isEqualTo(String.join("\n",
        "operator sigmoid elementwise -> f32",
        "  param x: f32",
        "  %0 = neg f32 x",
        "  %1 = call exp f32 (%0)",
        "  %2 = add f32 1.0f, %1",
        "  %3 = div f32 1.0f, %2",
        "  return %3",
        ""));
  }

  @Test
  void aCalleeLoweredBetweenTwoLoopsLeavesTheCallersVariablesDistinct() throws IOException {
    Compilation c = javac().withProcessors(new KilnProcessor()).compile(JavaFileObjects.forResource("ir/LateCallee.java"));
    assertThat(c).succeededWithoutWarnings();
    String text = c.generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/kiln/ir/LateCallee.ir.txt").orElseThrow()
        .getCharContent(true).toString();
    assertThat(text).contains("  loop k in [0, K) carry (acc = 0.0f) {\n");
    assertThat(text).contains("  } -> acc_2\n");
    assertThat(text).contains("  loop k_2 in [0, K) carry (acc_3 = acc_2) {\n");
    assertThat(text).contains("  } -> acc_4\n  store y[m] = acc_4\n");
  }

  @Test
  void raceCheckAcceptsInjectiveWritesThatAreNotObviouslySo() {
    Compilation c = javac().withProcessors(new KilnProcessor()).compile(JavaFileObjects.forResource("ir/RaceFree.java"));
    assertThat(c).succeededWithoutWarnings();
    assertThat(c).generatedSourceFile("ir.RaceFreeKernels");
  }

  /** A user monoid: its method printed once as a {@code monoid} block, each update as a {@code combine}. */
  @Test
  void aUserMonoidPrintsItsMethodOnceAndEachUpdate() throws IOException {
    JavaFileObject source = JavaFileObjects.forSourceLines("m.Totals",
        "package m;",
        "import dev.kiln.*;",
        "public final class Totals {",
        "  public record Sum(float s, int n) {",
        "    @Identity public static Sum zero() { return new Sum(0f, 0); }",
        "    public Sum plus(Sum o) { return new Sum(s + o.s, n + o.n); }",
        "  }",
        "  @Operator public static void total(@Dim int N, @Shape(\"N\") float[] x, @Out @Reduce @Shape(\"1\") Sum[] r) {",
        "    for (@Parallel int i = 0; i < N; i++) {",
        "      r[0] = r[0].plus(new Sum(x[i], 1));",
        "    }",
        "  }",
        "}");
    Compilation c = javac().withProcessors(new KilnProcessor()).compile(source);
    assertThat(c).succeeded();
    String text = c.generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/kiln/m/Totals.ir.txt").orElseThrow()
        .getCharContent(true).toString();
    assertThat(text.substring(text.indexOf("operator total"))).isEqualTo(String.join("\n",
        "operator total grid",
        "  param N: i32 dim",
        "  param x: in f32[N]",
        "  param r_s: reduce f32[1]",
        "  param r_n: reduce i32[1]",
        "  parallel i < N",
        "  monoid Sum.plus (a_s, a_n) (b_s, b_n) {",
        "    %0 = add f32 a_s, b_s",
        "    %1 = add i32 a_n, b_n",
        "    -> (%0, %1)",
        "    identity (0.0f, 0)",
        "  }",
        "  %2 = load x[i]",
        "  combine Sum.plus (r_s, r_n)[0] <- (%2, 1)",
        ""));
  }

  @Test
  void aMonoidsElementGradientPrintsInItsBlockAndDerivesTheGradient() throws IOException {
    JavaFileObject source = JavaFileObjects.forSourceLines("m.Scaled",
        "package m;",
        "import dev.kiln.*;",
        "public final class Scaled {",
        "  public record Sum(float s, int n) {",
        "    @Identity public static Sum zero() { return new Sum(0f, 0); }",
        "    public Sum plus(Sum o) { return new Sum(s + o.s, n + o.n); }",
        "    @ElementGradient public static Sum grad(Sum t, Sum dt, Sum e) { return new Sum(dt.s * e.n, 0); }",
        "  }",
        "  @Operator public static void total(@Dim int N, @Shape(\"N\") float[] x, @Out @Reduce @Shape(\"1\") Sum[] r) {",
        "    for (@Parallel int i = 0; i < N; i++) {",
        "      r[0] = r[0].plus(new Sum(3f * x[i], 2));",
        "    }",
        "  }",
        "}");
    Compilation c = javac().withProcessors(new KilnProcessor()).compile(source);
    assertThat(c).succeeded();
    String text = c.generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/kiln/m/Scaled.ir.txt").orElseThrow()
        .getCharContent(true).toString();
    assertThat(text).contains(String.join("\n",
        "    identity (0.0f, 0)",
        "    %2 = cast f32 e_n",
        "    %3 = mul f32 dt_s, %2",
        "    gradient grad (t_s, t_n) (dt_s, dt_n) (e_s, e_n) -> (%3, 0)",
        "  }",
        "  %4 = load x[i]",
        "  %5 = mul f32 3.0f, %4",
        "  combine Sum.plus (r_s, r_n)[0] <- (%5, 2)"));
    String gradients = c.generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/kiln/m/Scaled.gradients.ir.txt")
        .orElseThrow().getCharContent(true).toString();
    assertThat(gradients.substring(gradients.indexOf("operator totalGrad_k0"))).isEqualTo(String.join("\n",
        "operator totalGrad_k0 grid",
        "  param N: i32 dim",
        "  param dr_s: in f32[1]",
        "  param dx: out f32[N]",
        "  parallel i < N",
        "  %0 = load dr_s[0]",
        "  %1 = mul f32 %0, 2.0f",
        "  %2 = mul f32 %1, 3.0f",
        "  store dx[i] = %2",
        ""));
  }
}
