package dev.kiln.processor;

import dev.kiln.processor.artifacts.Namespace;
import dev.kiln.processor.autodiff.CompositeGradient;
import dev.kiln.processor.autodiff.WorkerStatistics;
import dev.kiln.processor.fusion.FusionPlan;
import dev.kiln.processor.ir.CompositeIr;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
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
    if (names.taken(forwardName) || names.taken(backwardName)) {
      return null;
    }
    boolean fewerCalls = !saved.isEmpty()
        && CompositeGradient.recomputedCalls(c, saved) < CompositeGradient.recomputedCalls(c, Set.of());
    Set<String> statistics = new LinkedHashSet<>();
    CompositeIr withStatistics = withStatistics(c, saved, gradients, statistics);
    if (!fewerCalls && statistics.isEmpty()) {
      return null;
    }
    Set<String> all = new LinkedHashSet<>(saved);
    all.addAll(statistics);
    CompositeIr backward = gradients.deriveSaved(withStatistics, all, backwardName);
    if (backward == null) {
      return null;
    }
    names.claim(forwardName);
    names.claim(backwardName);
    return new Pair(CompositeGradient.saving(withStatistics, all, forwardName), backward);
  }

  /**
   * {@code c} with each call that the backward pass does not repeat (it writes only outputs and
   * {@code saved} temporaries) and whose operator has training forms ({@link Gradients#statistics})
   * calling the operator that also stores its loops' results, into new temporaries, whose names
   * go to {@code statistics}: the backward pass then expands that operator's {@code GradSaved}.
   */
  private static CompositeIr withStatistics(CompositeIr c, Set<String> saved, Gradients gradients, Set<String> statistics) {
    Set<String> taken = new java.util.HashSet<>();
    c.signature().params().forEach(p -> taken.add(p.name()));
    c.temps().forEach(t -> taken.add(t.name()));
    Set<String> unsaved = new java.util.HashSet<>();
    c.temps().forEach(t -> {
      if (!saved.contains(t.name())) {
        unsaved.add(t.name());
      }
    });
    List<CompositeIr.Temp> temps = new ArrayList<>(c.temps());
    List<CompositeIr.Call> calls = new ArrayList<>();
    for (CompositeIr.Call call : c.calls()) {
      WorkerStatistics.Forms forms = CompositeGradient.writesAny(call, unsaved) ? null : gradients.statistics(call.callee());
      if (forms == null) {
        calls.add(call);
        continue;
      }
      OperatorIr.Grid saving = forms.forward().calls().get(0).callee();
      List<CompositeIr.Arg> args = new ArrayList<>(call.args());
      for (Param p : saving.params().subList(call.callee().params().size(), saving.params().size())) {
        Param.Array stat = (Param.Array) p;
        String name = stat.name();
        for (int n = 2; !taken.add(name); n++) {
          name = stat.name() + n;
        }
        temps.add(new CompositeIr.Temp(name, stat.elementType(), stat.shape().length().substitute(call.dims()), call.origin()));
        statistics.add(name);
        args.add(new CompositeIr.Arg.Tensor(name));
      }
      calls.add(new CompositeIr.Call(call.id(), saving, call.dims(), args, call.origin(), call.line()));
    }
    return statistics.isEmpty() ? c : new CompositeIr(c.signature(), temps, calls);
  }
}
