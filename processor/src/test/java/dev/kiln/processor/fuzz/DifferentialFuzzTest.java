package dev.kiln.processor.fuzz;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Differential fuzzing of the processor: for each seed, {@link ClassGenerator} writes a class of
 * well-formed operators (elementwise, grid and a composite of the grid ones, see {@link
 * ElementwiseGenerator}, {@link GridGenerator} and {@link CompositeGenerator}), javac compiles it with Kiln's processor, and {@link DifferentialRunner} checks
 * that every generated kernel computes what the operator's plain Java computes. A failure names
 * the seed and shows the operator source and the generated kernels; rerun one seed with {@code
 * -Dkiln.fuzz.seed=S}, or more seeds with {@code -Dkiln.fuzz.iterations=N} (see {@link
 * FuzzSettings}).
 *
 * <p>Processor bugs these tests found (each now fixed or refused with a diagnostic; the
 * generators write every construct again, and {@link Mutator} the refused ones):
 *
 * <ol>
 *   <li>An integer division guarded by a condition and used twice was computed once, before the
 *       guard: {@code int x = b != 0 ? a / b : 0; int y = b != 0 ? a / b : 1;} threw {@code
 *       ArithmeticException} in the kernel for {@code b == 0}.
 *   <li>An early {@code return} did not guard the integer divisions after it: {@code if (b == 0)
 *       return 0; int q = a / b; return q + 1;} threw in the kernel for {@code b == 0}.
 *   <li>A float term of an int reduction was truncated before it was added ({@code c[0] += x[i]}
 *       gave {@code c + (int) x} per worker, Java {@code (int) (c + x)}); now KILN021.
 *   <li>A worker assigning a local declared before the {@code @Parallel} loops was accepted and
 *       each worker got its own copy: {@code float carry = 0f; for (@Parallel ...) { carry +=
 *       x[i]; y[i] = carry; }} is a running sum in Java, {@code y[i] = x[i]} in the kernel; now
 *       KILN036.
 *   <li>Overloaded operators: a call resolved to the first {@code @Operator} of that name, so a
 *       valid call was refused with KILN028; overloads are now refused with KILN032.
 *   <li>A sequential loop assigning two locals declared outside it, one of which ends an
 *       iteration as a constant, parameter or variable ({@code a += x[i]; c = 1f;}, or a local
 *       changed only by a nested loop), crashed code generation with KILN999.
 *   <li>{@code long} constants converted to float were folded through double, rounding twice:
 *       {@code (float) 9007199791611905L} is {@code 9.0072003E15f} in Java and was {@code
 *       9.0071993E15f} in the kernel.
 *   <li>The CUDA writer's index widening rebuilt the IR in a fresh {@code ExprFactory} but kept
 *       the old variables, whose ids collided with fresh ids in the hash-consing keys: in {@code
 *       for (@Parallel i) { double a0 = 0.5, a1 = 1.5, a2 = 2.5; double s = 0.0; for (int q = 0; q
 *       < N; q++) s += (double) q; y[i] = s + (double) (i + 1); }} the node {@code (double) (i + 1)}
 *       became {@code (double) q}, and generating the class failed with KILN999 ({@code
 *       fromIndex(3) > toIndex(2)}), CPU kernels included.
 *   <li>SIMD kernels (once the fuzzer compiled them, 12 of 10,000 seeds): a value the same in every
 *       lane computed by {@code ?:} had both branches computed ahead of it, so {@code int q = b != 0
 *       ? N / b : N} inside a vectorised loop divided by zero on row 0 ({@code SimdOps.guardedDivision}).
 *       The first fix wrote the whole branch inside the ?:, and a shared subexpression repeated in
 *       every use made two seeds' methods too large for javac ("code too large"); now only the
 *       parts that can throw are written there.
 *   <li>A composite chaining one grid operator four times, each call's producer recomputed in the
 *       next, fused into a kernel whose SIMD form was 2.2 million characters of Java; javac refused
 *       the class ("code too large", seed 21967 of a 10,000-seed run). A kernel whose SIMD methods
 *       pass {@code SimdKernelsWriter.MAX_CHARS} now keeps its scalar form only, and the listing
 *       says why.
 * </ol>
 */
class DifferentialFuzzTest {
  /** Classes compiled, and those that got SIMD kernels (only when this JVM has the Vector API). */
  private static final java.util.concurrent.atomic.AtomicInteger CLASSES = new java.util.concurrent.atomic.AtomicInteger();
  private static final java.util.concurrent.atomic.AtomicInteger SIMD = new java.util.concurrent.atomic.AtomicInteger();
  /** Composites checked, and their calls the merger fused into fewer kernels. */
  private static final java.util.concurrent.atomic.AtomicInteger COMPOSITES = new java.util.concurrent.atomic.AtomicInteger();
  private static final java.util.concurrent.atomic.AtomicInteger FUSED = new java.util.concurrent.atomic.AtomicInteger();

  @org.junit.jupiter.api.AfterAll
  static void summary() {
    System.out.println("[differential fuzz] " + CLASSES.get() + " classes, " + SIMD.get() + " with SIMD kernels, "
        + COMPOSITES.get() + " composites (" + FUSED.get() + " with calls fused into fewer kernels)"
        + (ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent() ? "" : " (this JVM has no jdk.incubator.vector)"));
  }

  @TestFactory
  Stream<DynamicTest> generatedKernelsAgreeWithTheirOperators() {
    return FuzzSettings.seeds().mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> check(seed)));
  }

  private static void check(long seed) throws Exception {
    GeneratedClass generated = ClassGenerator.generate(seed);
    boolean nvcc = FuzzSettings.NVCC_EVERY > 0 && seed % FuzzSettings.NVCC_EVERY == 0;
    try (FuzzCompiler.Compilation c = FuzzCompiler.compile(generated.qualifiedName(), generated.source(), nvcc)) {
      if (c.crash != null || !c.success) {
        throw new AssertionError(report(generated, c,
            c.crash != null ? "javac or the processor crashed: " + c.crash : "a well-formed operator class did not compile:\n" + c.errors()),
            c.crash);
      }
      Class<?> ops = c.load(generated.qualifiedName());
      Class<?> kernels = c.load(generated.kernelsName());
      CLASSES.incrementAndGet();
      if (!c.generatedSource(generated.qualifiedName() + "SimdKernels").startsWith("(no ")) {
        SIMD.incrementAndGet();
      }
      if (generated.operators().stream().anyMatch(o -> o.name().equals("c0"))) {
        COMPOSITES.incrementAndGet();
        if (fused(c.generatedSource(generated.kernelsName()))) {
          FUSED.incrementAndGet();
        }
      }
      List<String> problems = new DifferentialRunner(ops, kernels, seed).run(generated.operators());
      if (!problems.isEmpty()) {
        fail(report(generated, c, "kernels disagree with their operators:\n  " + String.join("\n  ", problems)));
      }
    }
  }

  /** Whether the composite's launcher runs fewer kernels than it makes calls (its javadoc: "2 kernels after fusion (3 calls before)"). */
  private static boolean fused(String kernelsSource) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("composite \\{@link \\w+#c0\\}: (one|\\d+) kernels? after fusion \\((\\d+) calls? before\\)")
        .matcher(kernelsSource);
    return m.find() && (m.group(1).equals("one") ? 1 : Integer.parseInt(m.group(1))) < Integer.parseInt(m.group(2));
  }

  static String report(GeneratedClass generated, FuzzCompiler.Compilation c, String problem) {
    return "seed " + generated.seed() + " (rerun with -Dkiln.fuzz.seed=" + generated.seed() + "): " + problem
        + "\n---- " + generated.qualifiedName() + " ----\n" + numbered(generated.source())
        + "---- " + generated.kernelsName() + " ----\n" + c.generatedSource(generated.kernelsName());
  }

  static String numbered(String source) {
    StringBuilder b = new StringBuilder();
    String[] lines = source.split("\n", -1);
    for (int i = 0; i < lines.length - 1; i++) {
      b.append(String.format("%4d  %s%n", i + 1, lines[i]));
    }
    return b.toString();
  }
}
