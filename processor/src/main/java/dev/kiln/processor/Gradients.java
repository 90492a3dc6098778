package dev.kiln.processor;

import dev.kiln.processor.autodiff.CompositeGradient;
import dev.kiln.processor.autodiff.ElementwiseGradient;
import dev.kiln.processor.autodiff.GradientNames;
import dev.kiln.processor.autodiff.GridGradient;
import dev.kiln.processor.autodiff.NotDifferentiable;
import dev.kiln.processor.diag.Message;
import dev.kiln.processor.diag.Reporter;
import dev.kiln.processor.frontend.FrontEnd;
import dev.kiln.processor.frontend.OperatorSource;
import dev.kiln.processor.ir.CompositeIr;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.OperatorKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.lang.model.element.ExecutableElement;

/**
 * The gradient step: for every operator of a class that has something to differentiate, the
 * derived gradient composite, or a note on the construct that prevents it.
 */
final class Gradients {
  private final FrontEnd frontEnd;
  private final Reporter reporter;
  private final java.util.Map<OperatorIr, CompositeIr> derivedGrids = new java.util.IdentityHashMap<>();

  Gradients(FrontEnd frontEnd, Reporter reporter) {
    this.frontEnd = frontEnd;
    this.reporter = reporter;
  }

  /**
   * The gradient composites of {@code operators}, named {@code <op>Grad}; each name is added to
   * {@code names}.
   */
  Result derive(List<OperatorIr> operators, List<ExecutableElement> methods, Set<String> names) {
    List<CompositeIr> out = new ArrayList<>();
    List<OperatorIr> elementwise = new ArrayList<>();
    for (OperatorIr op : operators) {
      ExecutableElement method = method(op, methods);
      if (ElementwiseGradient.applies(op)) {
        List<OperatorIr> grads = ElementwiseGradient.derive(op);
        if (grads.stream().anyMatch(g -> names.contains(g.name()))) {
          reporter.note(method, Message.GRADIENT_NAME_TAKEN, op.name(), grads.get(0).name(), op.name());
          continue;
        }
        grads.forEach(g -> names.add(g.name()));
        elementwise.addAll(grads);
        continue;
      }
      if (op.kind() == OperatorKind.COMPOSITE) {
        CompositeIr composite = frontEnd.composite(op);
        if (CompositeGradient.applies(composite)) {
          derive(op, method, names, out, () -> CompositeGradient.derive(composite, this::calleeGradient));
        }
        continue;
      }
      if (!GridGradient.applies(op)) {
        continue;
      }
      derive(op, method, names, out, () -> calleeGradient(op));
    }
    return new Result(out, elementwise);
  }

  private interface Derivation {
    CompositeIr get() throws NotDifferentiable;
  }

  private void derive(OperatorIr op, ExecutableElement method, Set<String> names, List<CompositeIr> out, Derivation d) {
    String name = GradientNames.launcher(op.name());
    if (names.contains(name)) {
      reporter.note(method, Message.GRADIENT_NAME_TAKEN, op.name(), name, op.name());
      return;
    }
    try {
      out.add(d.get());
      names.add(name);
    } catch (NotDifferentiable e) {
      note(op, method, e);
    } catch (CompositeGradient.Unavailable e) {
      note(op, method, e.notDifferentiable());
    }
  }

  /** The gradient composite of a grid operator, derived once per operator. */
  private CompositeIr calleeGradient(OperatorIr callee) {
    return derivedGrids.computeIfAbsent(callee, k -> {
      try {
        return GridGradient.derive(k);
      } catch (NotDifferentiable e) {
        throw new CompositeGradient.Unavailable(e);
      }
    });
  }

  /** Gradient composites (of grid operators) and elementwise gradient operators. */
  record Result(List<CompositeIr> composites, List<OperatorIr> elementwise) {}

  private void note(OperatorIr op, ExecutableElement method, NotDifferentiable e) {
    OperatorSource source = frontEnd.source(method);
    if (e.origin() instanceof com.sun.source.tree.Tree t && source != null) {
      reporter.note(t, source.unit(), Message.GRADIENT_UNAVAILABLE, op.name(), e.reason(), op.name());
    } else {
      reporter.note(method, Message.GRADIENT_UNAVAILABLE, op.name(), e.reason(), op.name());
    }
  }

  private static ExecutableElement method(OperatorIr op, List<ExecutableElement> methods) {
    for (ExecutableElement m : methods) {
      if (m.getSimpleName().contentEquals(op.name())) {
        return m;
      }
    }
    throw new IllegalStateException("no method for operator " + op.name());
  }
}
