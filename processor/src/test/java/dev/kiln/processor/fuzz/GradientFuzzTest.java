package dev.kiln.processor.fuzz;

import static org.junit.jupiter.api.Assertions.fail;

import dev.kiln.testing.Precision;
import dev.kiln.testing.Probe;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Differential fuzzing of derived gradients: for each seed, {@link ClassGenerator} writes a class
 * of well-formed operators, javac compiles it with Kiln's processor, and {@link GradientRunner}
 * checks every generated {@code fGrad} against central finite differences of the operator's plain
 * Java. Seeds and iterations as in {@link DifferentialFuzzTest} ({@link FuzzSettings}); a failure
 * names the seed and shows the source and the generated kernels.
 *
 * <p><b>Who owes a gradient.</b> An operator with something to differentiate (elementwise: a
 * floating result and a floating parameter; grid: a floating input array and a floating {@code
 * @Out} array) must get its {@code fGrad} (or {@code fGrad_<p>}) with the documented signature, or
 * a {@code KILN043} note naming it; neither is a failure, and so is both.
 *
 * <p><b>What is checked.</b> Grid operators: dims drawn in 1..4, floating inputs in [-2, 2) (from
 * draw {@link GradientRunner#POSITIVE_FROM} on in [0.25, 2)), ints in [-5, 5], output arrays
 * starting zero or (half the draws) random; the plain forward gives Y; dY in [-1, 1) per floating
 * output; {@code fGrad(args with Y, dY..., dX...)} with dX starting NaN. It must not throw, change
 * its arguments or dY, and each dX must match {@code L = sum dY[i] Y[i]} (the plain forward run from
 * the same initial outputs, summed in double) along a random direction and at {@link
 * GradientRunner#SINGLES} single elements. Elementwise operators: each scalar gradient at {@link
 * GradientRunner#POINTS} points against central differences of {@code dy * f}, and the map launcher
 * against the scalar gradient bit for bit.
 *
 * <p><b>Composites.</b> Each class also has a composite of its grid operators ({@link
 * CompositeGenerator}), so its {@code c0Grad} (callee gradients in reverse order, contributions
 * summed, all fused by the merger) is checked like any grid operator's. The first run of these
 * found a merger bug: a call reading, under a guard, a value the kernel before stores at the same
 * worker had the load replaced by that value without the guard (a guarded load reads zero where its
 * guard fails), so a gradient flowed through the branch not taken; now the value is selected by the
 * guard ({@code MergeAttempt}), as is a recomputed producer's value ({@code WritePattern.at}). The
 * tests module's {@code Regressions.pickExpTwice} is that case.
 *
 * <p><b>Kinks.</b> The generated operators are full of comparisons, selects, {@code min}/{@code
 * max}, {@code abs}, {@code floor}, {@code rint}, {@code signum} and int casts. Every probe is judged
 * smooth or not from the forward values alone ({@link Probe#roughness}: central differences at
 * h and h/2, odd and even gaps), never from the gradient under test: a rough random direction
 * rejects the draw (new inputs are drawn), a rough single element is replaced by another, and a
 * non-finite gradient element fails where L is smooth along it. So a wrong gradient cannot cause
 * its own check to be skipped; an operator whose every draw is rejected is counted unchecked (not a
 * failure; the summary printed at the end says how many).
 *
 * <p><b>Tolerances</b> ({@link Precision}, the tests module's values): float operators (the
 * text of the operator or of an elementwise operator it calls says {@code float}; a double
 * operator with a float cast inside is float too, since its L is only float-accurate) {@code h =
 * 1e-3} relative to {@code max(1, |x|)}, {@code rel = 1e-2}; double ones {@code h = 1e-6}, {@code
 * rel = 1e-6}; plus {@code 128 eps}  times the magnitude of the terms of L and of the
 * predicted change, where the noise magnitude counts every term of L on the probe (changed or not:
 * a generated float operator may absorb a tiny contribution entirely, {@code big + 1e-42 * x}, so
 * that the central difference is exactly 0 while the true derivative is not).
 *
 * <p><b>Calibration.</b> With {@code -Dkiln.gradfuzz.fdStandIn=true} every gradient under test is
 * replaced by per-element central differences at a third of the step (which carry their own
 * truncation and noise, so they are a harder case than a correct gradient). Over seeds 1..400 (12680
 * probes) the ratio |fd - predicted| / tolerance was below 1e-2 for 99.5% of probes, the worst
 * passing one 0.16; the only 2 failures were the stand-in itself straddling a spike narrower than
 * h/3 (a float {@code ==} comparison), invisible to the probes at h and h/2. With the processor's
 * gradients (seeds 1..1200, 38365 probes) all but 76 probes are below 1e-2; the failures are the
 * bugs reported with this test, with ratios of 2 to 10 or more.
 */
class GradientFuzzTest {
  /** Fewer than the differential test's: each seed also runs dozens of forward passes per gradient. */
  static final int DEFAULT_ITERATIONS = 20;

  private static final Pattern UNAVAILABLE = Pattern.compile("'(\\w+)' gets no derived gradient: (.*?)\\. Write one");

  @TestFactory
  Stream<DynamicTest> derivedGradientsAgreeWithFiniteDifferences() {
    return FuzzSettings.seeds(DEFAULT_ITERATIONS).mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> check(seed)));
  }

  @AfterAll
  static void summary() {
    System.out.println("[gradient fuzz] " + GradientRunner.STATS);
  }

  private static void check(long seed) throws Exception {
    GeneratedClass generated = ClassGenerator.generate(seed);
    try (FuzzCompiler.Compilation c = FuzzCompiler.compile(generated.qualifiedName(), generated.source(), false, true)) {
      if (c.crash != null || !c.success) {
        throw new AssertionError(DifferentialFuzzTest.report(generated, c,
            c.crash != null ? "javac or the processor crashed: " + c.crash : "a well-formed operator class did not compile:\n" + c.errors()),
            c.crash);
      }
      java.util.Map<String, String> refused = new java.util.HashMap<>();
      for (Diagnostic<? extends JavaFileObject> d : c.diagnostics) {
        String m = d.getMessage(Locale.ROOT);
        if (m.contains("KILN043")) {
          Matcher k = UNAVAILABLE.matcher(m);
          if (k.find()) {
            refused.put(k.group(1), k.group(2));
          }
        }
      }
      Class<?> ops = c.load(generated.qualifiedName());
      Class<?> kernels = c.load(generated.kernelsName());
      GradientRunner runner = new GradientRunner(ops, kernels, generated.source(), generated.operators(), seed);
      List<String> problems = new ArrayList<>();
      for (OperatorSpec op : generated.operators()) {
        boolean owed = GradientRunner.differentiable(op);
        List<String> names = GradientRunner.gradientNames(op);
        boolean has = !names.isEmpty() && hasMethod(kernels, names.get(0));
        if (refused.containsKey(op.name())) {
          synchronized (GradientRunner.STATS) {
            GradientRunner.STATS.refused++;
            GradientRunner.STATS.refusals.merge(refused.get(op.name()).replaceAll("'[^']*'", "'_'"), 1, Integer::sum);
          }
          if (has) {
            problems.add(op.name() + " got a KILN043 note (" + refused.get(op.name()) + ") and a gradient");
          }
          continue;
        }
        if (!owed) {
          continue;
        }
        if (!has) {
          problems.add(op.name() + " got neither a gradient " + names + " nor a KILN043 note; the diagnostics: " + notes(c));
          continue;
        }
        if (runner.check(op).size() > 3) {
          break;
        }
      }
      problems.addAll(runner.check(null));
      if (!problems.isEmpty()) {
        fail(DifferentialFuzzTest.report(generated, c, "derived gradients disagree with finite differences:\n  "
            + String.join("\n  ", problems)));
      }
    }
  }

  private static String notes(FuzzCompiler.Compilation c) {
    List<String> out = new ArrayList<>();
    for (Diagnostic<? extends JavaFileObject> d : c.diagnostics) {
      out.add(d.getKind() + " line " + d.getLineNumber() + ": " + d.getMessage(Locale.ROOT));
    }
    return out.toString();
  }

  private static boolean hasMethod(Class<?> kernels, String name) {
    for (java.lang.reflect.Method m : kernels.getMethods()) {
      if (m.getName().equals(name)) {
        return true;
      }
    }
    return false;
  }
}
