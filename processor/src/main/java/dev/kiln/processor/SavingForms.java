package dev.kiln.processor;

import dev.kiln.processor.artifacts.Namespace;
import dev.kiln.processor.autodiff.CompositeGradient;
import dev.kiln.processor.fusion.FusionPlan;
import dev.kiln.processor.ir.CompositeIr;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * For training: a composite's forward pass that also hands its stored temporaries to the caller
 * ({@code <op>Saving}: the same calls, those temporaries now {@code @Out} parameters after the
 * composite's own), and the backward pass that takes them instead of recomputing the calls that
 * wrote them ({@code <op>GradSaved}: the forward parameters, the saved temporaries, then {@code
 * <op>Grad}'s upstream gradients and results). Saved are the temporaries the fused forward pass
 * stores anyway (allocated, not kept per worker on the CPU), so the saving form costs nothing more
 * than the plain one; made only where the backward pass then repeats fewer forward calls (the LSTM
 * step's gate products: its gradient computes them again otherwise).
 */
final class SavingForms {
  /** The saving forward composite and the backward composite that takes what it saves. */
  record Pair(CompositeIr forward, CompositeIr backward) {}

  private SavingForms() {}

  static String savingName(String op) {
    return op + "Saving";
  }

  static String gradSavedName(String op) {
    return dev.kiln.processor.autodiff.GradientNames.launcher(op) + "Saved";
  }

  /** The pair for the forward plan {@code plan}'s composite, or null where saving gains nothing. */
  static Pair of(FusionPlan plan, Gradients gradients, Namespace names) {
    CompositeIr c = plan.composite();
    Set<String> saved = new LinkedHashSet<>();
    for (CompositeIr.Temp t : plan.allocatedOnCpu()) {
      if (t.elementType().isFloating()) {
        saved.add(t.name());
      }
    }
    String forwardName = savingName(c.name());
    String backwardName = gradSavedName(c.name());
    if (saved.isEmpty() || names.taken(forwardName) || names.taken(backwardName)
        || CompositeGradient.recomputedCalls(c, saved) >= CompositeGradient.recomputedCalls(c, Set.of())) {
      return null;
    }
    CompositeIr backward = gradients.deriveSaved(c, saved, backwardName);
    if (backward == null) {
      return null;
    }
    names.claim(forwardName);
    names.claim(backwardName);
    return new Pair(CompositeGradient.saving(c, saved, forwardName), backward);
  }
}
