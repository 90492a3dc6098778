package dev.kiln.processor.ir.transform;

import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Stmt;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Removes the stores of arrays nobody reads, then the loops left with no effect whose results no
 * kept statement uses. Walks backwards, collecting the variables that kept statements need.
 */
public final class DeadStores {
  private DeadStores() {}

  /** {@code body} without the stores of arrays {@code live} rejects, and the loops that leaves with no effect. */
  public static List<Stmt> prune(List<Stmt> body, Predicate<Param.Array> live) {
    return prune(body, live, new HashSet<>());
  }

  private static List<Stmt> prune(List<Stmt> body, Predicate<Param.Array> live, Set<Expr.Var> used) {
    List<Stmt> out = new ArrayList<>();
    for (int i = body.size() - 1; i >= 0; i--) {
      Stmt s = body.get(i);
      if (s instanceof Stmt.Store st) {
        if (live.test(st.array())) {
          out.add(st);
          vars(used, st.index(), st.value(), st.guard());
        }
      } else if (s instanceof Stmt.Accumulate a) {
        if (live.test(a.array())) {
          out.add(a);
          vars(used, a.index(), a.value(), a.guard());
        }
      } else if (s instanceof Stmt.Combine c) {
        if (c.arrays().stream().anyMatch(live)) {
          out.add(c);
          vars(used, c.index(), c.guard());
          c.values().forEach(v -> vars(used, v));
        }
      } else {
        Stmt.Loop l = (Stmt.Loop) s;
        boolean resultsUsed = l.carried().stream().anyMatch(c -> used.contains(c.result()));
        Set<Expr.Var> inner = new HashSet<>(used);
        l.carried().forEach(c -> vars(inner, c.next())); // a kept loop keeps all its carried values
        List<Stmt> kept = prune(l.body(), live, inner);
        if (kept.isEmpty() && !resultsUsed) {
          continue;
        }
        out.add(new Stmt.Loop(l.id(), l.index(), l.lo(), l.hi(), l.step(), l.guard(), l.carried(), kept, l.origin()));
        used.addAll(inner);
        vars(used, l.lo(), l.hi(), l.guard());
        l.carried().forEach(c -> vars(used, c.init(), c.next()));
      }
    }
    Collections.reverse(out);
    return out;
  }

  /** Whether {@code body} stores or accumulates into {@code a}. */
  public static boolean writes(List<Stmt> body, Param.Array a) {
    for (Stmt s : body) {
      if (s instanceof Stmt.Store st && st.array() == a || s instanceof Stmt.Accumulate ac && ac.array() == a
          || s instanceof Stmt.Combine c && c.arrays().contains(a)
          || s instanceof Stmt.Loop l && writes(l.body(), a)) {
        return true;
      }
    }
    return false;
  }

  private static void vars(Set<Expr.Var> used, Expr... roots) {
    Set<Expr> seen = new HashSet<>();
    for (Expr r : roots) {
      walk(r, used, seen);
    }
  }

  private static void walk(Expr e, Set<Expr.Var> used, Set<Expr> seen) {
    if (!seen.add(e)) {
      return;
    }
    if (e instanceof Expr.Var v) {
      used.add(v);
    }
    for (Expr o : e.operands()) {
      walk(o, used, seen);
    }
  }
}
