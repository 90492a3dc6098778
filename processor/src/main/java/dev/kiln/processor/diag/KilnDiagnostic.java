package dev.kiln.processor.diag;

import com.sun.source.tree.Tree;

/**
 * Thrown by a stage that cannot go on with an operator after a user error; carries the diagnostic
 * to report on {@code tree}. Caught per operator, so one bad operator never stops the others.
 */
public final class KilnDiagnostic extends RuntimeException {
  private final transient Tree tree;
  private final Message kilnMessage;
  private final transient Object[] args;

  public KilnDiagnostic(Tree tree, Message message, Object... args) {
    super(message.format(args), null, false, false);
    this.tree = tree;
    this.kilnMessage = message;
    this.args = args;
  }

  public Tree tree() {
    return tree;
  }

  public Message kilnMessage() {
    return kilnMessage;
  }

  public Object[] args() {
    return args;
  }
}
