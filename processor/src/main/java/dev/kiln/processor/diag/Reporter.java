package dev.kiln.processor.diag;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.Trees;
import javax.annotation.processing.Messager;
import javax.lang.model.element.Element;
import javax.tools.Diagnostic;

/**
 * The one place diagnostics leave the processor. Reports go on the exact tree node when there is
 * one, so javac's caret sits under the offending expression; otherwise on the element. Counts
 * errors so later stages generate nothing for an operator that failed.
 */
public final class Reporter {
  private final Messager messager;
  private final Trees trees;
  private int errors;

  public Reporter(Messager messager, Trees trees) {
    this.messager = messager;
    this.trees = trees;
  }

  public void error(Tree tree, CompilationUnitTree unit, Message message, Object... args) {
    report(Diagnostic.Kind.ERROR, tree, unit, message, args);
  }

  public void error(Element element, Message message, Object... args) {
    errors++;
    messager.printMessage(Diagnostic.Kind.ERROR, message.format(args), element);
  }

  public void note(Element element, Message message, Object... args) {
    messager.printMessage(Diagnostic.Kind.NOTE, message.format(args), element);
  }

  public void note(Tree tree, CompilationUnitTree unit, Message message, Object... args) {
    report(Diagnostic.Kind.NOTE, tree, unit, message, args);
  }

  public void warning(Tree tree, CompilationUnitTree unit, Message message, Object... args) {
    report(Diagnostic.Kind.WARNING, tree, unit, message, args);
  }

  public void warning(Element element, Message message, Object... args) {
    messager.printMessage(Diagnostic.Kind.WARNING, message.format(args), element);
  }

  private void report(
      Diagnostic.Kind kind, Tree tree, CompilationUnitTree unit, Message message, Object... args) {
    if (kind == Diagnostic.Kind.ERROR) {
      errors++;
    }
    trees.printMessage(kind, message.format(args), tree, unit);
  }

  /** The number of errors reported so far. */
  public int errorCount() {
    return errors;
  }
}
