package dev.kiln.processor.frontend;

import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.util.TreeScanner;
import java.util.LinkedHashSet;
import java.util.Set;

/** The simple names a statement assigns ({@code x = }, {@code x += }, {@code x++}). */
final class AssignedNames extends TreeScanner<Void, Void> {
  private final Set<String> names = new LinkedHashSet<>();

  static Set<String> in(Tree tree) {
    AssignedNames scanner = new AssignedNames();
    tree.accept(scanner, null);
    return scanner.names;
  }

  private void target(ExpressionTree t) {
    if (t instanceof IdentifierTree id) {
      names.add(id.getName().toString());
    }
  }

  @Override
  public Void visitAssignment(AssignmentTree node, Void unused) {
    target(node.getVariable());
    return super.visitAssignment(node, unused);
  }

  @Override
  public Void visitCompoundAssignment(CompoundAssignmentTree node, Void unused) {
    target(node.getVariable());
    return super.visitCompoundAssignment(node, unused);
  }

  @Override
  public Void visitUnary(UnaryTree node, Void unused) {
    switch (node.getKind()) {
      case PREFIX_INCREMENT, PREFIX_DECREMENT, POSTFIX_INCREMENT, POSTFIX_DECREMENT ->
          target(node.getExpression());
      default -> {}
    }
    return super.visitUnary(node, unused);
  }
}
