package dev.kiln.tests.grad;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.kiln.testing.Precision;
import dev.kiln.testing.Probe;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every operator's generated gradient ({@code CKernels.fGrad}) against central finite differences
 * of its plain-Java source.
 *
 * <p><b>What is checked.</b> For a grid or composite operator: the forward outputs Y from plain
 * Java (fresh zero-filled output arrays, {@code @Reduce} ones included), random upstream gradients
 * dY in [-1, 1), and {@code fGrad}'s gradient dX of each floating input array X, checked against
 * {@code L = sum_Y sum_i dY[i] Y[i]} (in double, from the plain-Java forward): once along a random
 * direction v (each element perturbed by {@code h v_j max(1, |x_j|)}, v_j in [-1, 1)), then at
 * four random single elements. Floating scalar parameters are constants, drawn in [0.25, 1) (an
 * epsilon must be positive); int outputs get a zero dY and no term in L. For an elementwise operator: each scalar {@code fGrad} / {@code
 * fGrad_p} at 16 random points against central differences of {@code dy * f}, and its map
 * launcher against the scalar form exactly.
 *
 * <p><b>Steps and tolerances</b> ({@link Precision}). Both sides are compared as changes of L over
 * the step: {@code fd = L(x + h v) - L(x - h v)}, summed term by term over the terms {@code dY_i
 * Y_i} that the perturbation changed, and the predicted {@code sum_j dX[j] delta_j}, with delta the
 * perturbation actually applied after rounding {@code x +- h v} to the element type (so rounding the
 * perturbed inputs costs nothing). They must agree within {@code rel * max(|fd|, |predicted|) + 128
 * eps (sum of the changed |dY_i Y_i| + sum |dX_j delta_j|)}: the second term is the rounding noise
 * of the forward outputs that moved and of the predicted change (the measured noise it is calibrated
 * on is in {@link Precision#NOISE}). The error of a central difference of a correct gradient is
 * truncation, about {@code h^2 L'''/6} relative, plus that noise, about {@code eps/h} relative.
 *
 * <ul>
 *   <li>double: {@code h = 1e-6}, {@code rel = 1e-6}: truncation about 1e-12 and noise about 1e-10,
 *       so the tolerance is four orders above the error of a correct gradient, and any real mistake
 *       (a missing term, a wrong factor) is far above it.
 *   <li>float: {@code h = 1e-3}, near enough the optimum {@code (eps/L''')^(1/3)}; truncation about
 *       1e-6 and noise about 1e-4 relative, so {@code rel = 1e-2} leaves a hundredfold margin.
 *       Measured on every test operator with a finite-difference stand-in for fGrad, the tolerance
 *       is 1.9% of the central difference at the median and 8% at the 90th percentile (where the
 *       derivative is small and the noise term dominates). Dims are small (3..8), so a wrong term
 *       at one element is still a visible fraction of a directional sum, and the single-element
 *       checks see it whole.
 * </ul>
 *
 * <p><b>Kinks and domains.</b> relu, max, abs, clamps, comparisons and data-dependent selections
 * are smooth except on a set that random inputs miss almost surely, but a central difference of
 * width 2h can straddle it. Every probe is judged smooth or not from L alone ({@link Probe}: the
 * central difference at h and h/2, odd and even parts), never from the gradient under test, so a
 * wrong gradient can never make its own check be skipped; a rough or non-finite probe rejects the
 * draw of inputs (a single element is replaced instead), and the check fails when all of {@link
 * GridGradients#DRAWS} draws are rejected (from the fourth on, floating arrays are positive, for
 * operators like rsqrt). Seeds are fixed, so which draws are rejected does not change unless the
 * plain-Java operator does.
 *
 * <p><b>Which operators.</b> Every static {@code @Operator} method of {@link Operators#CLASSES}.
 * One without a gradient method must be in {@link NoGradient} with its reason, and one there must
 * not have any.
 */
class GradientCheckTest {
  /** Dims start at these values: {@code base, base + 1, ...} in declaration order. */
  private static final int[] SIZES = {3, 6};

  @TestFactory
  Stream<DynamicTest> gradients() {
    List<DynamicTest> tests = new ArrayList<>();
    for (Method op : Operators.all()) {
      String key = Operators.key(op);
      String reason = NoGradient.REASONS.get(key);
      if (reason != null) {
        tests.add(DynamicTest.dynamicTest(key + " (no gradient: " + reason + ")", () -> expectNone(op, reason)));
      } else if (op.getReturnType() != void.class) {
        tests.add(DynamicTest.dynamicTest(key, () -> elementwise(op)));
      } else {
        for (int size : SIZES) {
          tests.add(DynamicTest.dynamicTest(key + " dims from " + size, () -> grid(op, size)));
        }
      }
    }
    return tests.stream();
  }

  static void expectNone(Method op, String reason) throws Exception {
    List<String> found = Launchers.allGradients(op);
    if (!found.isEmpty()) {
      fail(Operators.key(op) + " is in NoGradient (\"" + reason + "\") but has " + found
          + ": remove the stale expectation");
    }
  }

  static void grid(Method op, int size) throws Exception {
    String name = op.getName() + "Grad";
    Class<?>[] types = Launchers.gridTypes(op);
    Method grad = Launchers.find(op, name, types);
    if (grad == null) {
      fail(missing(op, Launchers.signature(name, types)));
    }
    new GridGradients(Operators.key(op), op, Launcher.of(grad)).check(size);
  }

  static void elementwise(Method op) throws Exception {
    List<String> names = Launchers.scalarNames(op);
    Class<?>[] types = Launchers.scalarTypes(op);
    List<Launcher> grads = new ArrayList<>();
    for (String name : names) {
      Method grad = Launchers.find(op, name, types);
      if (grad == null) {
        fail(missing(op, Launchers.signature(name, types)));
      }
      grads.add(Launcher.of(grad));
    }
    if (names.isEmpty()) {
      fail(Operators.key(op) + " has no floating parameter: add it to NoGradient with the reason");
    }
    ElementwiseGradients check = new ElementwiseGradients(Operators.key(op), op);
    check.checkScalar(grads, names.stream().map(n -> op.getDeclaringClass().getSimpleName() + "Kernels." + n)
        .collect(Collectors.toList()));
    if (names.size() == 1 && mappable(op)) {
      Class<?>[] mapTypes = Launchers.mapTypes(op);
      Method map = Launchers.find(op, names.get(0), mapTypes);
      if (map == null) {
        fail(missing(op, Launchers.signature(names.get(0), mapTypes)));
      }
      check.checkMap(Launcher.of(map), grads.get(0));
    }
  }

  /** Like {@code OperatorRuns.mappable}: every type float, double or int. */
  private static boolean mappable(Method op) {
    Set<Class<?>> ok = Set.of(float.class, double.class, int.class);
    return ok.contains(op.getReturnType()) && Stream.of(op.getParameterTypes()).allMatch(ok::contains);
  }

  private static String missing(Method op, String expected) throws Exception {
    List<String> found = Launchers.allGradients(op);
    return Operators.key(op) + ": no " + op.getDeclaringClass().getSimpleName() + "Kernels." + expected
        + (found.isEmpty() ? "" : "; there are " + found)
        + ". If it has no gradient, add it to NoGradient with the reason";
  }

  @Test
  void everyNoGradientEntryNamesAnOperator() {
    Set<String> keys = Operators.all().stream().map(Operators::key).collect(Collectors.toSet());
    Set<String> unknown = new TreeSet<>(NoGradient.REASONS.keySet());
    unknown.removeAll(keys);
    assertTrue(unknown.isEmpty(), "NoGradient names operators that do not exist: " + unknown);
  }

  @Test
  void operatorKeysAreUnique() {
    List<String> keys = Operators.all().stream().map(Operators::key).collect(Collectors.toList());
    assertEquals(keys.size(), new HashSet<>(keys).size(), "two operator classes share a simple name: " + keys);
  }

  /** The classes the generic CUDA agreement test runs are all checked here too. */
  @Test
  void coversEveryOperatorClassOfOperatorRuns() throws Exception {
    Field field = Class.forName("dev.kiln.tests.cuda.OperatorRuns").getDeclaredField("OPERATOR_CLASSES");
    field.setAccessible(true);
    List<?> theirs = (List<?>) field.get(null);
    List<Object> missing = new ArrayList<>(theirs);
    missing.removeAll(Operators.CLASSES);
    assertTrue(missing.isEmpty(), "add to Operators.CLASSES: " + missing);
  }
}
