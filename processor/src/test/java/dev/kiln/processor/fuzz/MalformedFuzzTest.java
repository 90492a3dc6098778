package dev.kiln.processor.fuzz;

import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Fuzzing of the processor's refusals: for each seed, a small generated class (one or two
 * elementwise operators and a grid operator, see {@link ClassGenerator}) gets one {@link Mutator}
 * mutation that keeps it valid Java but outside the operator language. javac with Kiln's processor
 * must not crash, must fail, and must report at least one {@code [KILNnnn]} error, none of them
 * {@code [KILN999]} (an internal error), among them the id the mutation calls for (such as {@code
 * KILN007} for every worker writing {@code out[0]}). A failure names the seed, the mutation and
 * the source; rerun it with {@code -Dkiln.fuzz.seed=S}, or print every seed's mutation and
 * diagnostics with {@code -Dkiln.fuzz.verbose=true}.
 */
class MalformedFuzzTest {
  @TestFactory
  Stream<DynamicTest> mutatedOperatorsAreRefusedWithKilnDiagnostics() {
    return FuzzSettings.seeds().mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> check(seed)));
  }

  private static void check(long seed) throws Exception {
    GeneratedClass original = ClassGenerator.generate(seed, 2, 1);
    Mutator.Mutant mutant = Mutator.mutate(original, new SplittableRandom(~seed));
    GeneratedClass generated = new GeneratedClass(seed, original.packageName(), original.simpleName(), mutant.source(), original.operators());
    try (FuzzCompiler.Compilation c = FuzzCompiler.compile(generated.qualifiedName(), generated.source())) {
      String what = "mutation '" + mutant.mutation() + "' of " + mutant.operator() + " (" + mutant.expectedId() + " expected)";
      if (c.crash != null) {
        throw new AssertionError(DifferentialFuzzTest.report(generated, c, "javac or the processor crashed on " + what + ": " + c.crash), c.crash);
      }
      List<String> errors = c.errorMessages();
      List<String> kiln = errors.stream().filter(e -> e.startsWith("[KILN")).toList();
      String problem = null;
      if (c.success) {
        problem = "the malformed class compiled";
      } else if (kiln.stream().anyMatch(e -> e.startsWith("[KILN999]"))) {
        problem = "an internal error (KILN999)";
      } else if (kiln.isEmpty()) {
        problem = "no [KILN...] error, only javac's";
      } else if (kiln.stream().noneMatch(e -> e.startsWith("[" + mutant.expectedId() + "]"))) {
        problem = "no " + mutant.expectedId() + " error";
      }
      if (problem != null) {
        throw new AssertionError(DifferentialFuzzTest.report(generated, c, problem + " on " + what + ":\n" + c.errors()));
      }
      if (Boolean.getBoolean("kiln.fuzz.verbose")) {
        System.out.println("seed " + seed + " " + what + ": " + kiln);
      }
    }
  }
}
