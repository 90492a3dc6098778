package dev.kiln.processor.fusion;

import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.StmtWalk;
import dev.kiln.processor.ir.transform.ExprMapper;
import dev.kiln.processor.ir.transform.Rewriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The pass that runs two of a worker's folding loops as one: part of a fused kernel's device form
 * ({@link Recompute}). On a GPU each top-level loop of a row kernel is a pass over the row by the
 * block's threads and a block reduction of each of its carried values, so two loops over the same
 * range that need nothing from each other cost a pass and a chain of barriers more than one. A
 * derived gradient makes such pairs: softmax's backward pass sums {@code -adj * exp(x - m)} in one
 * loop and, in the next, searches for the first element equal to the maximum ({@link FirstMatch}),
 * and both need only values known before the first.
 *
 * <p>Fused kernels get it in their device form ({@link Recompute#forDevice}), and so do operators
 * compiled on their own (the class pipeline asks for it).
 *
 * <p>A top-level loop {@code L} joins the nearest top-level loop {@code E} before it when both
 * only fold (carried values, no statements in their bodies), have the same bounds, step and guard
 * (an always-true one), and {@code L} reads no result of {@code E} or of any loop between them, nor
 * an array written between them (a fold loop writes none itself), and an array both read is read by
 * a third loop too (so that a row kernel keeps its cache of the row; a row's sum and maximum alone
 * stay two loops). The joint loop computes {@code
 * E}'s carried values and then {@code L}'s, each iteration by iteration in the same order as
 * before, so every value keeps its bits. Only the device form is rewritten: on the CPU each loop is
 * a pass over a row that is in cache anyway.
 */
public final class SiblingLoops {
  private SiblingLoops() {}

  /** {@code op} with every such pair joined; {@code op} itself when there is none. */
  public static OperatorIr.Grid join(OperatorIr.Grid op) {
    OperatorIr.Grid current = op;
    while (true) {
      OperatorIr.Grid next = joinOne(current);
      if (next == null) {
        return current;
      }
      current = next;
    }
  }

  /** The first pair joined, or null when none qualifies. */
  private static OperatorIr.Grid joinOne(OperatorIr.Grid op) {
    List<Stmt> top = op.body();
    Rewriter probe = new Rewriter(new ExprFactory(), (orig, rebuilt) -> rebuilt);
    for (int j = 1; j < top.size(); j++) {
      if (!(top.get(j) instanceof Stmt.Loop later) || !folds(later)) {
        continue;
      }
      Set<Expr> uses = new HashSet<>(StmtWalk.nodes(StmtWalk.exprs(later)));
      Set<String> reads = new HashSet<>();
      StmtWalk.loads(StmtWalk.exprs(later)).forEach(l -> reads.add(l.array().name()));
      for (int i = j - 1; i >= 0; i--) {
        Stmt s = top.get(i);
        if (s instanceof Stmt.Loop earlier && folds(earlier) && Recompute.sameRange(earlier, later, probe)
            && !usesResults(uses, earlier) && keepsRowCaches(top, i, j)) {
          return op.withBody(joined(top, i, j));
        }
        if (s instanceof Stmt.Loop l && usesResults(uses, l)) {
          break;
        }
        Set<String> written = StmtWalk.writtenArrays(List.of(s));
        written.retainAll(reads);
        if (!written.isEmpty()) {
          break;
        }
      }
    }
    return null;
  }

  /**
   * Whether every array both loops read is also read by another top-level loop: a row kernel keeps
   * a row in shared memory when two of the worker's loops read it (and its short-row form, for rows
   * of up to 2048 elements, needs that cache), so a join that left one reader would trade the cache
   * and the short form for one pass fewer over a row read from global memory, not measured to pay.
   */
  private static boolean keepsRowCaches(List<Stmt> top, int i, int j) {
    Set<String> both = readArrays(top.get(i));
    both.retainAll(readArrays(top.get(j)));
    for (String a : both) {
      boolean other = false;
      for (int k = 0; k < top.size() && !other; k++) {
        other = k != i && k != j && top.get(k) instanceof Stmt.Loop && readArrays(top.get(k)).contains(a);
      }
      if (!other) {
        return false;
      }
    }
    return true;
  }

  private static Set<String> readArrays(Stmt s) {
    Set<String> out = new HashSet<>();
    StmtWalk.loads(StmtWalk.exprs(s)).forEach(l -> out.add(l.array().name()));
    return out;
  }

  /** Whether {@code l} only folds: carried values, an always-true guard, a positive step and no statements. */
  private static boolean folds(Stmt.Loop l) {
    return !l.carried().isEmpty() && l.body().isEmpty() && l.step() > 0
        && Recompute.isTrue(l.guard());
  }

  private static boolean usesResults(Set<Expr> uses, Stmt.Loop l) {
    for (Stmt.Carried c : l.carried()) {
      if (uses.contains(c.result())) {
        return true;
      }
    }
    return false;
  }

  /** {@code top} with loop {@code j}'s carried values moved into loop {@code i}, on {@code i}'s variable. */
  private static List<Stmt> joined(List<Stmt> top, int i, int j) {
    Stmt.Loop earlier = (Stmt.Loop) top.get(i);
    Stmt.Loop later = (Stmt.Loop) top.get(j);
    ExprFactory f = new ExprFactory();
    ExprMapper onEarlier = new ExprMapper(f, Map.of(later.index(), earlier.index()), f::scalar, a -> a,
        id -> id == later.id() ? earlier.id() : id, null, null);
    List<Stmt.Carried> carried = new ArrayList<>(earlier.carried());
    for (Stmt.Carried c : later.carried()) {
      carried.add(c.with(c.phi(), c.init(), onEarlier.map(c.next()), c.result()));
    }
    List<Stmt> out = new ArrayList<>(top);
    out.set(i, new Stmt.Loop(earlier.id(), earlier.index(), earlier.lo(), earlier.hi(), earlier.step(),
        earlier.guard(), carried, List.of(), earlier.origin()));
    out.remove(j);
    return out;
  }
}
