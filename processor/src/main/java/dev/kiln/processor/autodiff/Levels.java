package dev.kiln.processor.autodiff;

import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Stmt;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where each value of a worker lives, and which values carry a gradient.
 *
 * <p>The <b>level</b> of an expression is the innermost sequential loop whose index or carried
 * values it depends on (null: the worker's top level). A loop's results live at the level around
 * it. Variables that the gradient pass makes are registered with their level.
 *
 * <p>An expression is <b>active</b> when it is floating-point and depends on a read of an array the
 * gradient is taken with respect to; only active values receive adjoints.
 */
final class Levels {
  private final Map<Expr.Var, Stmt.Loop> varLevel = new HashMap<>();
  private final Map<Stmt.Loop, Stmt.Loop> parent = new IdentityHashMap<>();
  private final Map<Stmt.Loop, Integer> depth = new IdentityHashMap<>();
  private final Map<Expr, Stmt.Loop> levelMemo = new HashMap<>();
  private final Set<Param.Array> wrt;
  private final Map<Expr.Var, Stmt.Carried> carriedOf = new HashMap<>();
  private final java.util.Set<Expr.Var> activeCarried = new java.util.HashSet<>();
  private Map<Expr, Boolean> activeMemo = new HashMap<>();

  Levels(List<Stmt> body, Set<Param.Array> wrt) {
    this.wrt = wrt;
    walk(body, null);
    boolean changed = true;
    while (changed) { // least fixpoint: a carried value is active when its init or update is
      changed = false;
      for (Stmt.Carried c : new java.util.LinkedHashSet<>(carriedOf.values())) {
        if (!activeCarried.contains(c.phi()) && (active(c.init()) || active(c.next()))) {
          activeCarried.add(c.phi());
          activeCarried.add(c.result());
          activeMemo = new HashMap<>();
          changed = true;
        }
      }
    }
  }

  private void walk(List<Stmt> body, Stmt.Loop around) {
    for (Stmt s : body) {
      if (s instanceof Stmt.Loop l) {
        parent.put(l, around);
        depth.put(l, around == null ? 1 : depth.get(around) + 1);
        varLevel.put(l.index(), l);
        for (Stmt.Carried c : l.carried()) {
          varLevel.put(c.phi(), l);
          varLevel.put(c.result(), around);
          carriedOf.put(c.phi(), c);
          carriedOf.put(c.result(), c);
        }
        walk(l.body(), l);
      }
    }
  }

  /** Records that {@code v}, made by the gradient pass, lives at {@code level}. */
  void register(Expr.Var v, Stmt.Loop level) {
    varLevel.put(v, level);
  }

  Stmt.Loop parentOf(Stmt.Loop l) {
    return parent.get(l);
  }

  /** The loops around {@code level}, outermost first, ending with {@code level} itself. */
  List<Stmt.Loop> chain(Stmt.Loop level) {
    java.util.LinkedList<Stmt.Loop> out = new java.util.LinkedList<>();
    for (Stmt.Loop l = level; l != null; l = parent.get(l)) {
      out.addFirst(l);
    }
    return out;
  }

  Stmt.Loop level(Expr e) {
    if (e instanceof Expr.Var v) {
      return varLevel.get(v);
    }
    if (levelMemo.containsKey(e)) {
      return levelMemo.get(e);
    }
    Stmt.Loop deepest = null;
    for (Expr o : e.operands()) {
      Stmt.Loop l = level(o);
      if (l != null && (deepest == null || depth.get(l) > depth.get(deepest))) {
        deepest = l;
      }
    }
    levelMemo.put(e, deepest);
    return deepest;
  }

  boolean active(Expr e) {
    if (!e.type().isFloating()) {
      return false;
    }
    Boolean known = activeMemo.get(e);
    if (known != null) {
      return known;
    }
    boolean a;
    if (e instanceof Expr.Load l) {
      a = wrt.contains(l.array());
    } else if (e instanceof Expr.Var v) {
      a = activeCarried.contains(v);
    } else {
      a = false;
      for (Expr o : e.operands()) {
        if (active(o)) {
          a = true;
          break;
        }
      }
    }
    activeMemo.put(e, a);
    return a;
  }

  /** Whether {@code e} depends on one of {@code vars}. */
  static boolean dependsOn(Expr e, Set<Expr.Var> vars, Map<Expr, Boolean> memo) {
    return reaches(e, n -> n instanceof Expr.Var v && vars.contains(v), memo);
  }

  /**
   * Whether {@code e} or a node below it satisfies {@code hit}; {@code memo} caches the answer per
   * node for one {@code hit}.
   */
  static boolean reaches(Expr e, java.util.function.Predicate<Expr> hit, Map<Expr, Boolean> memo) {
    if (hit.test(e)) {
      return true;
    }
    Boolean known = memo.get(e);
    if (known != null) {
      return known;
    }
    boolean found = false;
    for (Expr o : e.operands()) {
      if (reaches(o, hit, memo)) {
        found = true;
        break;
      }
    }
    memo.put(e, found);
    return found;
  }
}
