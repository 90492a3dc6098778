package dev.kiln.processor.ir.io;

import dev.kiln.processor.ir.Expr;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Numbers the nodes of one operator's expression DAG in definition order: every node after its
 * operands, each node once however often it is shared. Iterative, so deep expressions cannot
 * overflow the stack.
 */
final class NodeOrder {
  private final Map<Expr, Integer> numbers = new HashMap<>();
  private final List<Expr> nodes = new ArrayList<>();

  /** Numbers {@code root} and every node under it not numbered yet. */
  void add(Expr root) {
    if (root == null || numbers.containsKey(root)) {
      return;
    }
    Deque<Expr> stack = new ArrayDeque<>();
    Deque<Integer> visited = new ArrayDeque<>(); // operands of the node above already pushed
    stack.push(root);
    visited.push(0);
    while (!stack.isEmpty()) {
      Expr e = stack.peek();
      int i = visited.pop();
      List<Expr> ops = e.operands();
      while (i < ops.size() && numbers.containsKey(ops.get(i))) {
        i++;
      }
      if (i < ops.size()) {
        visited.push(i + 1);
        stack.push(ops.get(i));
        visited.push(0);
      } else {
        stack.pop();
        if (!numbers.containsKey(e)) {
          numbers.put(e, nodes.size());
          nodes.add(e);
        }
      }
    }
  }

  List<Expr> nodes() {
    return nodes;
  }

  int number(Expr e) {
    Integer n = numbers.get(e);
    if (n == null) {
      throw new IllegalStateException("node " + e.id() + " was not numbered");
    }
    return n;
  }

  /** {@code n12}: how statements and other nodes refer to {@code e}. */
  String ref(Expr e) {
    return "n" + number(e);
  }
}
