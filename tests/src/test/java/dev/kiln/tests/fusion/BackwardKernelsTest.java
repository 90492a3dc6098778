package dev.kiln.tests.fusion;

import static dev.kiln.tests.fusion.FusionResources.list;
import static dev.kiln.tests.fusion.FusionResources.string;
import static dev.kiln.tests.fusion.FusionResources.strings;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kiln.tests.gradients.Gradients;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * How many kernels the backward pass of a composite (or grid operator) fuses into, and which
 * temporaries it still allocates, read from {@code <Class>.fusion.json} (entries with {@code "pass":
 * "backward"}). These record what the fuser does today, not a target: each {@code why} explains the
 * number from the listing ({@code <Class>.gradients.ir.txt}), including what a stronger fuser could
 * do better.
 */
class BackwardKernelsTest {
  record Backward(Class<?> owner, String of, int kernels, Set<String> allocated, String why) {
    @Override
    public String toString() {
      return owner.getSimpleName() + "." + of + "Grad";
    }
  }

  static List<Backward> expected() {
    return List.of(
        new Backward(Composites.class, "lstmCell", 1, Set.of(),
            "split4's four reads of gates cover it once, so its gradient is written directly by the [B, H] worker"
                + " (no gather over [B, 4*H]); every backward call then runs on [B, H] and the merger fuses them all,"
                + " recomputing the gates, so nothing is stored"),
        new Backward(Composites.class, "ovl", 1, Set.of(),
            "split2 and concat2 invert directly: dx is written by the [N] worker that read it"),
        new Backward(Gradients.class, "tripleRead", 1, Set.of(),
            "one worker per row throughout: the forward row sum s (a loop) stays in the worker, since a call on"
                + " [B, N] that reads nothing from the row kernel joins it when later calls read both (it was stored"
                + " by a first kernel before); the adjoint of rowSum's reads is recomputed, not stored"),
        new Backward(Gradients.class, "swishParts", 1, Set.of(),
            "elementwise throughout: x's two contributions are summed in one kernel"),
        new Backward(Gradients.class, "symmetrize", 1, Set.of(),
            "da = dout + dout^T: the transpose's gather inverts into a read of dout, all on the grid [N, N]"),
        new Backward(Gradients.class, "conv2dStridedLevels", 2, Set.of(),
            "the adjoint of each read inside the loops is a loop-free kernel over [CO, OH, OW] and the window,"
                + " recomputed inside the dx and dk gathers, which run on their own grids: nothing is stored"),
        new Backward(Gradients.class, "maxPool3s2Rows", 2, Set.of("adj$x$1", "adj$x$2", "adj$x$3"),
            "the adjoint of each of a window row's three taps is written in the dy loop, so the dx gather on"
                + " x's grid reads it from memory"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("expected")
  void kernelCount(Backward e) {
    Map<String, Object> op = FusionResources.operator(e.owner(), e.of() + "Grad");
    assertEquals("backward", string(op, "pass"), e + ": pass");
    assertEquals(e.of(), string(op, "gradientOf"), e + ": gradientOf");
    assertEquals((long) e.kernels(), op.get("kernelCount"), e + ": kernelCount (" + e.why() + ")");
    assertEquals(e.kernels(), list(op, "kernels").size(), e + ": the kernels listed");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("expected")
  void allocatedTemporaries(Backward e) {
    Map<String, Object> op = FusionResources.operator(e.owner(), e.of() + "Grad");
    Set<String> allocated = new TreeSet<>();
    for (Object t : list(op, "tensors")) {
      Map<String, Object> tensor = FusionResources.map(t, "a tensor");
      if ("temp".equals(string(tensor, "kind")) && Boolean.TRUE.equals(tensor.get("allocated"))) {
        allocated.add(string(tensor, "name"));
      }
    }
    assertEquals(new TreeSet<>(e.allocated()), allocated, e + ": allocated temporaries (" + e.why() + ")");
    assertEquals((long) e.allocated().size(), op.get("allocatedTemporaryCount"), e + ": allocatedTemporaryCount");
  }

  /** The forward composites of {@link Gradients} are each one kernel. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("forwardComposites")
  void forwardCompositesAreOneKernel(String name) {
    Map<String, Object> op = FusionResources.operator(Gradients.class, name);
    assertEquals("forward", string(op, "pass"));
    assertEquals(1L, op.get("kernelCount"), name + ": " + list(op, "kernels"));
    for (Object k : list(op, "kernels")) {
      strings(FusionResources.map(k, "a kernel"), "fusedOps");
    }
  }

  static List<String> forwardComposites() {
    return List.of("tripleRead", "swishParts", "symmetrize");
  }
}
