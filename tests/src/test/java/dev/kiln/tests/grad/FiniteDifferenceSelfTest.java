package dev.kiln.tests.grad;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.testing.Loss;
import dev.kiln.testing.Precision;
import dev.kiln.testing.Probe;
import java.lang.reflect.Method;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/**
 * The finite-difference machinery on {@link FakeOperators}: hand-written correct gradients pass,
 * and each deliberately wrong one is rejected with a message naming the array and the element.
 */
class FiniteDifferenceSelfTest {
  private static Method method(String name) {
    for (Method m : FakeOperators.class.getDeclaredMethods()) {
      if (m.getName().equals(name) && !m.getParameterTypes()[0].isArray()) {
        return m;
      }
    }
    throw new IllegalArgumentException(name);
  }

  private static Method map(String name) {
    for (Method m : FakeOperators.class.getDeclaredMethods()) {
      if (m.getName().equals(name) && m.getParameterTypes()[0].isArray()) {
        return m;
      }
    }
    throw new IllegalArgumentException(name);
  }

  private static void grid(String op, String grad, int size) throws Exception {
    new GridGradients("Fake." + op, method(op), Launcher.of(method(grad))).check(size);
  }

  private static String gridFails(String op, String grad) {
    return assertThrows(AssertionFailedError.class, () -> grid(op, grad, 3)).getMessage();
  }

  @Test
  void correctGradientsPass() throws Exception {
    for (int size : new int[] {3, 6}) {
      grid("tanhDot", "tanhDotGrad", size);
      grid("blur", "blurGrad", size);
      grid("reluMatvec", "reluMatvecGrad", size);
    }
  }

  @Test
  void aMissingReductionTermFails() {
    String message = gridFails("tanhDot", "tanhDotGradWrong");
    assertTrue(message.contains("db") && message.contains("worst at ["), message);
  }

  @Test
  void anErrorAtOneElementOfAFloatStencilFails() {
    String message = gridFails("blur", "blurGradWrong");
    assertTrue(message.contains("dx") && message.contains("1 of 3 elements disagree") && message.contains("[2]"),
        message);
  }

  @Test
  void aForgottenReluMaskFails() {
    assertTrue(gridFails("reluMatvec", "reluMatvecGradWrong").contains("disagrees"));
  }

  @Test
  void anUnwrittenGradientElementFails() {
    assertTrue(gridFails("blur", "blurGradPartial").contains("dx[0] is NaN"));
  }

  @Test
  void aGradientThatModifiesItsArgumentsFails() {
    assertTrue(gridFails("blur", "blurGradClobbers").contains("modified its argument 'out'"));
  }

  @Test
  void anOperatorThatIsNeverSmoothFailsInsteadOfPassing() {
    assertTrue(gridFails("staircase", "staircaseGrad").contains("no draw of inputs could be checked"));
  }

  @Test
  void elementwiseGradientsPassAndWrongOnesFail() throws Exception {
    ElementwiseGradients softplus = new ElementwiseGradients("Fake.softplus", method("softplus"));
    softplus.checkScalar(List.of(Launcher.of(method("softplusGrad"))), List.of("softplusGrad"));
    softplus.checkMap(Launcher.of(map("softplusGrad")), Launcher.of(method("softplusGrad")));
    assertThrows(AssertionFailedError.class, () ->
        softplus.checkScalar(List.of(Launcher.of(method("softplusGradWrong"))), List.of("softplusGradWrong")));
    String message = assertThrows(AssertionFailedError.class, () ->
        softplus.checkMap(Launcher.of(map("softplusGradMapWrong")), Launcher.of(method("softplusGrad")))).getMessage();
    assertTrue(message.contains("1 of 37 elements differ; first at [5]"), message);

    ElementwiseGradients relu = new ElementwiseGradients("Fake.reluScale", method("reluScale"));
    relu.checkScalar(List.of(Launcher.of(method("reluScaleGrad_x")), Launcher.of(method("reluScaleGrad_w"))),
        List.of("reluScaleGrad_x", "reluScaleGrad_w"));
    message = assertThrows(AssertionFailedError.class, () -> relu.checkScalar(
        List.of(Launcher.of(method("reluScaleGrad_x")), Launcher.of(method("reluScaleGrad_wWrong"))),
        List.of("reluScaleGrad_x", "reluScaleGrad_wWrong"))).getMessage();
    assertTrue(message.contains("reluScaleGrad_wWrong"), message);
  }

  /** The smoothness test sees kinks anywhere within h, at x itself included, and jumps. */
  @Test
  void probesTellKinksAndJumpsFromSmoothFunctions() throws Exception {
    double h = Precision.DOUBLE.step;
    double[] unit = {1};
    for (double d : new double[] {0, 0.1 * h, 0.3 * h, 0.5 * h, 0.7 * h, 0.95 * h}) {
      Loss abs = x -> new double[] {Math.abs(((double[]) x)[0] - d)};
      Loss step = x -> new double[] {((double[]) x)[0] > d ? 1 : 0};
      assertNotNull(probe(abs, 0).roughness(Precision.DOUBLE), "kink at " + d);
      assertNotNull(probe(step, 0).roughness(Precision.DOUBLE), "jump at " + d);
    }
    Loss smooth = x -> new double[] {Math.exp(3 * ((double[]) x)[0]) + Math.sin(((double[]) x)[0])};
    assertNull(probe(smooth, 0.3).roughness(Precision.DOUBLE));
    Loss farKink = x -> new double[] {Math.abs(((double[]) x)[0] - 2 * h)};
    assertNull(probe(farKink, 0).roughness(Precision.DOUBLE));
  }

  private static Probe probe(Loss loss, double x) throws Exception {
    double[] at = {x};
    return Probe.at(loss, at, loss.terms(at), new double[] {1}, Precision.DOUBLE.step);
  }

  @Test
  void gridGradientSignatureFollowsTheSpec() throws Exception {
    assertArrayEquals(new Class<?>[] {int.class, double[].class, double[].class, double.class, double[].class,
        double[].class, double[].class, double[].class, double[].class, double[].class},
        Launchers.gridTypes(method("tanhDot")));
    assertArrayEquals(new Class<?>[] {float.class, float.class, float.class, float.class},
        Launchers.scalarTypes(method("reluScale")));
    assertArrayEquals(new Class<?>[] {float[].class, float[].class, float[].class, float[].class},
        Launchers.mapTypes(method("softplus")));
    assertTrue(Launchers.scalarNames(method("reluScale")).equals(List.of("reluScaleGrad_x", "reluScaleGrad_w")));
  }

  /** GradientCheckTest's own lookup, on {@link FakeOperatorsKernels}. */
  @Test
  void theTestFindsGradientsByTheirGeneratedNames() throws Exception {
    GradientCheckTest.grid(method("blur"), 3);
    GradientCheckTest.grid(method("tanhDot"), 6);
    GradientCheckTest.grid(method("reluMatvec"), 3);
    GradientCheckTest.elementwise(method("softplus"));
    GradientCheckTest.elementwise(method("reluScale"));
    GradientCheckTest.expectNone(method("staircase"), "never smooth");
  }

  @Test
  void aMissingGradientFailsAndSoDoesAStaleExpectation() {
    String missing = assertThrows(AssertionFailedError.class,
        () -> GradientCheckTest.grid(method("staircase"), 3)).getMessage();
    assertTrue(missing.contains("no FakeOperatorsKernels.staircaseGrad(int, float[], float[], float[], float[])")
        && missing.contains("NoGradient"), missing);
    String stale = assertThrows(AssertionFailedError.class,
        () -> GradientCheckTest.expectNone(method("blur"), "a guess")).getMessage();
    assertTrue(stale.contains("blurGrad(int, float[], float[], float[], float[])") && stale.contains("stale"), stale);
  }
}
