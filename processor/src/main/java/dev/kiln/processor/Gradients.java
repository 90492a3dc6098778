package dev.kiln.processor;

import dev.kiln.processor.artifacts.Namespace;
import dev.kiln.processor.autodiff.CompositeGradient;
import dev.kiln.processor.autodiff.ElementwiseGradient;
import dev.kiln.processor.autodiff.GradientNames;
import dev.kiln.processor.autodiff.GridGradient;
import dev.kiln.processor.autodiff.HandWritten;
import dev.kiln.processor.autodiff.NotDifferentiable;
import dev.kiln.processor.autodiff.WorkerStatistics;
import dev.kiln.processor.diag.Message;
import dev.kiln.processor.diag.Reporter;
import dev.kiln.processor.frontend.Annotations;
import dev.kiln.processor.frontend.OperatorSource;
import dev.kiln.processor.frontend.TreeRef;
import dev.kiln.processor.ir.ClassIr;
import dev.kiln.processor.ir.CompositeIr;
import dev.kiln.processor.ir.OperatorIr;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.lang.model.element.ExecutableElement;

/**
 * The gradient step: for every operator of a class that has something to differentiate, the
 * derived gradient composite, or a note on the construct that prevents it.
 */
final class Gradients {
  private final java.util.function.Function<ExecutableElement, OperatorSource> sources;
  private ClassIr classIr;
  private final Reporter reporter;
  private final java.util.Map<String, OperatorIr> handWritten = new java.util.HashMap<>();
  private final java.util.Map<OperatorIr.Grid, CompositeIr> derivedGrids = new java.util.IdentityHashMap<>();
  /** Composites whose gradient this derived (not written by hand). */
  private final Set<String> derivedComposites = new java.util.HashSet<>();

  /** {@code sources}: each method's source, for notes on the construct that prevents a gradient. */
  Gradients(java.util.function.Function<ExecutableElement, OperatorSource> sources, Reporter reporter) {
    this.sources = sources;
    this.reporter = reporter;
  }

  /**
   * Checks every {@code @Gradient} method of the class: it names an operator of the class and has
   * the signature of that operator's gradient. Reports each problem; false when there was one.
   */
  boolean validate(ClassIr classIr, List<ExecutableElement> methods) {
    this.classIr = classIr;
    List<OperatorIr> operators = classIr.operators();
    boolean ok = true;
    for (ExecutableElement m : methods) {
      javax.lang.model.element.AnnotationMirror mirror = Annotations.mirror(m, Annotations.GRADIENT);
      if (mirror == null) {
        continue;
      }
      String of = Annotations.stringValue(mirror, "of");
      OperatorIr f = byName(operators, of);
      ExecutableElement fm = f == null ? null : method(f, methods);
      if (f == null || fm == m || Annotations.mirror(fm, Annotations.OPERATOR) == null) {
        reporter.report(m, Message.GRADIENT_UNKNOWN_TARGET, of, of);
        ok = false;
        continue;
      }
      OperatorIr g = byName(operators, m.getSimpleName().toString());
      String mismatch = HandWritten.mismatch(f, g);
      if (mismatch != null) {
        reporter.report(m, Message.GRADIENT_SIGNATURE, of, mismatch);
        ok = false;
        continue;
      }
      handWritten.putIfAbsent(of, g);
    }
    return ok;
  }

  private static OperatorIr byName(List<OperatorIr> operators, String name) {
    for (OperatorIr op : operators) {
      if (op.name().equals(name)) {
        return op;
      }
    }
    return null;
  }

  /**
   * The gradient composites of the class {@link #validate} checked, named {@code <op>Grad}; each
   * name is added to {@code names}.
   */
  Result derive(List<ExecutableElement> methods, Namespace names) {
    List<OperatorIr> operators = classIr.operators();
    List<CompositeIr> out = new ArrayList<>();
    List<OperatorIr> elementwise = new ArrayList<>();
    for (OperatorIr op : operators) {
      ExecutableElement method = method(op, methods);
      if (Annotations.mirror(method, Annotations.GRADIENT) != null) {
        continue; // a hand-written gradient is not differentiated again
      }
      OperatorIr mine = handWritten.get(op.name());
      if (mine != null) {
        String launcher = GradientNames.launcher(op.name());
        if (mine.name().equals(launcher)) {
          continue; // it is its own launcher
        }
        if (!names.claim(launcher)) {
          reporter.report(method, Message.GRADIENT_NAME_TAKEN, op.name(), launcher, op.name());
          continue;
        }
        if (mine instanceof OperatorIr.Composite composite) {
          out.add(HandWritten.renamed(classIr.composite(composite), launcher));
        } else {
          elementwise.add(HandWritten.renamed(mine, launcher));
        }
        continue;
      }
      if (op instanceof OperatorIr.Elementwise map && ElementwiseGradient.applies(map)) {
        List<OperatorIr.Elementwise> grads = ElementwiseGradient.derive(map);
        if (grads.stream().anyMatch(g -> names.taken(g.name()))) {
          reporter.report(method, Message.GRADIENT_NAME_TAKEN, op.name(), grads.get(0).name(), op.name());
          continue;
        }
        grads.forEach(g -> names.claim(g.name()));
        elementwise.addAll(grads);
        continue;
      }
      if (op instanceof OperatorIr.Composite signature) {
        CompositeIr composite = classIr.composite(signature);
        if (CompositeGradient.applies(composite)) {
          derive(op, method, names, out, () -> CompositeGradient.derive(composite, this::calleeGradient));
          derivedComposites.add(op.name());
        }
        continue;
      }
      if (!(op instanceof OperatorIr.Grid grid) || !GridGradient.applies(grid)) {
        continue;
      }
      derive(op, method, names, out, () -> calleeGradient(grid));
    }
    return new Result(out, elementwise);
  }

  private interface Derivation {
    CompositeIr get() throws NotDifferentiable;
  }

  private void derive(OperatorIr op, ExecutableElement method, Namespace names, List<CompositeIr> out, Derivation d) {
    String name = GradientNames.launcher(op.name());
    if (names.taken(name)) {
      reporter.report(method, Message.GRADIENT_NAME_TAKEN, op.name(), name, op.name());
      return;
    }
    try {
      out.add(d.get());
      names.claim(name);
    } catch (NotDifferentiable e) {
      note(op, method, e);
    } catch (CompositeGradient.Unavailable e) {
      note(op, method, e.notDifferentiable());
    }
  }

  /**
   * The backward pass of {@code composite} as {@code name}, taking its temporaries {@code
   * saved} as inputs instead of recomputing them; null where it has none.
   */
  CompositeIr deriveSaved(CompositeIr composite, java.util.Set<String> saved, String name) {
    if (!derivedComposites.contains(composite.name())) {
      return null; // no derived gradient: refused, or written by hand
    }
    try {
      return CompositeGradient.derive(composite, this::calleeGradient, saved, name);
    } catch (dev.kiln.processor.autodiff.NotDifferentiable | CompositeGradient.Unavailable e) {
      return null; // its gradient was refused already, with the reason
    }
  }

  /** Whether the gradient of the class's grid operator {@code grid} was derived (not written by hand, not refused). */
  boolean derived(OperatorIr.Grid grid) {
    return !handWritten.containsKey(grid.name()) && derivedGrids.containsKey(grid);
  }

  /** Per grid operator, its training forms (null: none), made once; {@link #statistics}. */
  private final java.util.Map<OperatorIr.Grid, java.util.Optional<WorkerStatistics.Forms>> statistics =
      new java.util.IdentityHashMap<>();
  /** The backward composite of each saving grid operator ({@code f$saving}) that a composite's training form calls. */
  private final java.util.Map<OperatorIr.Grid, CompositeIr> savingGradients = new java.util.IdentityHashMap<>();

  /**
   * The training forms of {@code grid} that save its loops' results (named {@code <op>Saving} and
   * {@code <op>GradSaved}), or null where its gradient is written by hand, refused, or runs none of
   * its loops again. A composite's training forms call its saving operator in place of it.
   */
  WorkerStatistics.Forms statistics(OperatorIr.Grid grid) {
    return statistics.computeIfAbsent(grid, k -> {
      if (handWritten.containsKey(k.name()) || !GridGradient.applies(k)) {
        return java.util.Optional.empty();
      }
      CompositeIr gradient;
      try {
        gradient = calleeGradient(k);
      } catch (CompositeGradient.Unavailable e) {
        return java.util.Optional.empty();
      }
      WorkerStatistics.Forms forms = WorkerStatistics.of(k, gradient, SavingForms.savingName(k.name()),
          SavingForms.gradSavedName(k.name()));
      if (forms != null) {
        savingGradients.put(forms.forward().calls().get(0).callee(), forms.backward());
      }
      return java.util.Optional.ofNullable(forms);
    }).orElse(null);
  }

  /** The gradient composite of a grid operator: the hand-written one, or derived once per operator. */
  private CompositeIr calleeGradient(OperatorIr.Grid callee) {
    CompositeIr saving = savingGradients.get(callee);
    if (saving != null) {
      return saving; // a composite's training form calls the operator that saves its statistics
    }
    OperatorIr g = handWritten.get(callee.name());
    if (g != null && g.owner().equals(callee.owner())) {
      return HandWritten.composite(g, g instanceof OperatorIr.Composite composite ? classIr.composite(composite) : null);
    }
    return derivedGrids.computeIfAbsent(callee, k -> {
      try {
        return GridGradient.derive(k);
      } catch (NotDifferentiable e) {
        throw new CompositeGradient.Unavailable(e);
      }
    });
  }

  /**
   * Gradient composites (derived ones, and hand-written composite gradients under their launcher
   * name) and gradient operators (derived elementwise ones, and hand-written ones under their
   * launcher name).
   */
  record Result(List<CompositeIr> composites, List<OperatorIr> operators) {}

  private void note(OperatorIr op, ExecutableElement method, NotDifferentiable e) {
    OperatorSource source = sources.apply(method);
    com.sun.source.tree.Tree t = TreeRef.tree(e.origin());
    if (t != null && source != null) {
      reporter.report(t, source.unit(), Message.GRADIENT_UNAVAILABLE, op.name(), e.reason(), op.name());
    } else {
      reporter.report(method, Message.GRADIENT_UNAVAILABLE, op.name(), e.reason(), op.name());
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
