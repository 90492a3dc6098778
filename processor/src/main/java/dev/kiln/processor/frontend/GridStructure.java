package dev.kiln.processor.frontend;

import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.ForLoopTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.PrimitiveTypeTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreeScanner;
import dev.kiln.processor.diag.KilnDiagnostic;
import dev.kiln.processor.diag.Message;
import dev.kiln.processor.ir.GridDim;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits a grid operator's body into its parts: invariant declarations before the grid, the
 * perfectly nested {@code @Parallel} loops, and the worker (the innermost loop's body).
 */
record GridStructure(List<VariableTree> prologue, List<Loop> loops, StatementTree worker) {

  /**
   * One {@code for (@Parallel int var = 0; var < bound; var++)}: the bound a {@code @Dim} ({@code
   * extent}, {@code size} its symbol) or a polynomial {@code size} of them ({@code 4 * H}, {@code N1
   * + N2}), then with an {@code extent} of its own that is not a parameter.
   */
  record Loop(ForLoopTree tree, String var, Param.Scalar extent, Poly size) {}

  static boolean isParallel(ForLoopTree t) {
    return t.getInitializer().size() == 1
        && t.getInitializer().get(0) instanceof VariableTree v
        && Annotations.tree(v.getModifiers(), Annotations.PARALLEL) != null;
  }

  /** Reads the structure of {@code body}; reports what breaks it as a {@link KilnDiagnostic}. */
  static GridStructure of(BlockTree body, Signature signature) {
    List<? extends StatementTree> stmts = body.getStatements();
    int first = -1;
    for (int i = 0; i < stmts.size(); i++) {
      if (stmts.get(i) instanceof ForLoopTree f && isParallel(f)) {
        first = i;
        break;
      }
    }
    if (first < 0) {
      return new GridStructure(List.of(), List.of(), body); // no grid: one worker
    }
    List<VariableTree> prologue = new ArrayList<>();
    for (int i = 0; i < first; i++) {
      if (!(stmts.get(i) instanceof VariableTree v)) {
        throw new KilnDiagnostic(stmts.get(i), Message.STATEMENT_OUTSIDE_GRID, "this statement is");
      }
      prologue.add(v);
    }
    if (first + 1 < stmts.size()) {
      throw new KilnDiagnostic(stmts.get(first + 1), Message.STATEMENT_OUTSIDE_GRID, "this statement is");
    }
    List<Loop> loops = new ArrayList<>();
    StatementTree inner = stmts.get(first);
    while (inner instanceof ForLoopTree f && isParallel(f)) {
      loops.add(loop(f, signature));
      inner = single(f.getStatement());
    }
    ForLoopTree stray = findParallel(inner);
    if (stray != null) {
      throw new KilnDiagnostic(stray, Message.NOT_PERFECTLY_NESTED,
          "this @Parallel loop has statements beside it or is inside another statement");
    }
    return new GridStructure(prologue, loops, inner);
  }

  private static StatementTree single(StatementTree s) {
    while (s instanceof BlockTree b && b.getStatements().size() == 1) {
      s = b.getStatements().get(0);
    }
    return s;
  }

  private static ForLoopTree findParallel(Tree t) {
    ForLoopTree[] found = {null};
    t.accept(new TreeScanner<Void, Void>() {
      @Override
      public Void visitForLoop(ForLoopTree node, Void unused) {
        if (found[0] == null && isParallel(node)) {
          found[0] = node;
        }
        return super.visitForLoop(node, unused);
      }
    }, null);
    return found[0];
  }

  private static Loop loop(ForLoopTree t, Signature signature) {
    VariableTree v = (VariableTree) t.getInitializer().get(0);
    String name = v.getName().toString();
    Message m = Message.PARALLEL_LOOP_FORM;
    if (!(v.getType() instanceof PrimitiveTypeTree p) || !p.toString().equals("int")) {
      throw new KilnDiagnostic(v, m, "the loop variable '" + name + "' must be an int");
    }
    if (!(v.getInitializer() instanceof LiteralTree lit) || !Integer.valueOf(0).equals(lit.getValue())) {
      throw new KilnDiagnostic(v.getInitializer() == null ? v : v.getInitializer(), m, "it must start at 0");
    }
    ExpressionTree cond = t.getCondition();
    if (!(cond instanceof BinaryTree b) || b.getKind() != Tree.Kind.LESS_THAN
        || !(b.getLeftOperand() instanceof IdentifierTree left) || !left.getName().contentEquals(name)) {
      throw new KilnDiagnostic(cond == null ? t : cond, m, "the condition must be " + name + " < N");
    }
    Param.Scalar extent = null;
    Poly size = null;
    if (b.getRightOperand() instanceof IdentifierTree bound
        && signature.param(bound.getName().toString()) instanceof Param.Scalar s && s.dim()) {
      extent = s;
      size = Poly.symbol(s.name());
    } else {
      size = size(b.getRightOperand(), signature);
      if (size != null) {
        extent = GridDim.derivedExtent(name);
      }
    }
    if (extent == null) {
      throw new KilnDiagnostic(b.getRightOperand(), m, "the bound '" + b.getRightOperand() + "' is neither a @Dim"
          + " parameter nor made of @Dim parameters, int literals, + and * (such as 4 * H or N1 + N2)");
    }
    boolean stepOne = false;
    if (t.getUpdate().size() == 1) {
      ExpressionTree u = t.getUpdate().get(0).getExpression();
      stepOne = ((u.getKind() == Tree.Kind.POSTFIX_INCREMENT || u.getKind() == Tree.Kind.PREFIX_INCREMENT)
              && ((UnaryTree) u).getExpression() instanceof IdentifierTree id && id.getName().contentEquals(name))
          || (u.getKind() == Tree.Kind.PLUS_ASSIGNMENT
              && ((CompoundAssignmentTree) u).getVariable() instanceof IdentifierTree id2 && id2.getName().contentEquals(name)
              && ((CompoundAssignmentTree) u).getExpression() instanceof LiteralTree one
              && Integer.valueOf(1).equals(one.getValue()));
    }
    if (!stepOne) {
      throw new KilnDiagnostic(t, m, "the update must be " + name + "++");
    }
    return new Loop(t, name, extent, size);
  }

  /**
   * A bound made of {@code @Dim} parameters, non-negative int literals, {@code +}, {@code *} and
   * parentheses, as a polynomial (never negative, so the loop runs as often as Java's); else null.
   */
  private static Poly size(ExpressionTree e, Signature signature) {
    if (e instanceof ParenthesizedTree p) {
      return size(p.getExpression(), signature);
    }
    if (e instanceof LiteralTree l && l.getValue() instanceof Integer i && i >= 0) {
      return Poly.constant(i);
    }
    if (e instanceof IdentifierTree id && signature.param(id.getName().toString()) instanceof Param.Scalar s && s.dim()) {
      return Poly.symbol(s.name());
    }
    if (e instanceof BinaryTree b && (b.getKind() == Tree.Kind.PLUS || b.getKind() == Tree.Kind.MULTIPLY)) {
      Poly left = size(b.getLeftOperand(), signature);
      Poly right = size(b.getRightOperand(), signature);
      if (left != null && right != null) {
        return b.getKind() == Tree.Kind.PLUS ? left.add(right) : left.multiply(right);
      }
    }
    return null;
  }
}
