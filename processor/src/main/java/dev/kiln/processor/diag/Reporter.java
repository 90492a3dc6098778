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

  /** Reports {@code message} on {@code tree} of {@code unit}, with the message's own severity. */
  public void report(Tree tree, CompilationUnitTree unit, Message message, Object... args) {
    count(message);
    trees.printMessage(message.kind(), message.format(args), tree, unit);
  }

  /** Reports {@code message} on {@code element}, with the message's own severity. */
  public void report(Element element, Message message, Object... args) {
    count(message);
    messager.printMessage(message.kind(), message.format(args), element);
  }

  private void count(Message message) {
    if (message.kind() == Diagnostic.Kind.ERROR) {
      errors++;
    }
  }

  /** The number of errors reported so far. */
  public int errorCount() {
    return errors;
  }
}
