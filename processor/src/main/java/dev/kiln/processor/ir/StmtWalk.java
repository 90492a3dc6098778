package dev.kiln.processor.ir;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Walks over a worker's statements: their expressions, the arrays they write, the loads of an array. */
public final class StmtWalk {
  private StmtWalk() {}

  /**
   * Every expression of {@code s}, and of the statements inside it when it is a loop: guards,
   * indices and values; a loop's bounds and its carried values' init and next.
   */
  public static List<Expr> exprs(Stmt s) {
    List<Expr> out = new ArrayList<>();
    exprs(s, out);
    return out;
  }

  private static void exprs(Stmt s, List<Expr> out) {
    out.add(s.guard());
    if (s instanceof Stmt.Store st) {
      out.add(st.index());
      out.add(st.value());
    } else if (s instanceof Stmt.Accumulate a) {
      out.add(a.index());
      out.add(a.value());
    } else if (s instanceof Stmt.Combine c) {
      out.add(c.index()); // the monoid's own expressions are a function of its operands, not of the worker
      out.addAll(c.values());
    } else {
      Stmt.Loop l = (Stmt.Loop) s;
      out.add(l.lo());
      out.add(l.hi());
      for (Stmt.Carried c : l.carried()) {
        out.add(c.init());
        out.add(c.next());
      }
      for (Stmt inner : l.body()) {
        exprs(inner, out);
      }
    }
  }

  /**
   * The arrays that a store, an accumulation or a combine writes (a combine: one a component of its
   * record, in the monoid's order); none for a loop.
   */
  public static List<Param.Array> arraysWritten(Stmt s) {
    if (s instanceof Stmt.Store st) {
      return List.of(st.array());
    }
    if (s instanceof Stmt.Accumulate a) {
      return List.of(a.array());
    }
    return s instanceof Stmt.Combine c ? c.arrays() : List.of();
  }

  /** The element that a store, an accumulation or a combine writes; null for a loop. */
  public static Expr index(Stmt s) {
    if (s instanceof Stmt.Store st) {
      return st.index();
    }
    if (s instanceof Stmt.Accumulate a) {
      return a.index();
    }
    return s instanceof Stmt.Combine c ? c.index() : null;
  }

  /** Whether {@code s} adds into a {@code @Reduce} output: an accumulation, or a user monoid's combine. */
  public static boolean reduces(Stmt s) {
    return s instanceof Stmt.Accumulate || s instanceof Stmt.Combine;
  }

  /** The first {@link Stmt.Combine} of {@code body} (into a {@code @Reduce} array of records), loops included; null when there is none. */
  public static Stmt.Combine firstCombine(List<Stmt> body) {
    for (Stmt s : body) {
      if (s instanceof Stmt.Combine c) {
        return c;
      }
      if (s instanceof Stmt.Loop l) {
        Stmt.Combine inner = firstCombine(l.body());
        if (inner != null) {
          return inner;
        }
      }
    }
    return null;
  }

  /** The greatest scope number of the loops in {@code body}, nested ones included; 0 when there are none. */
  public static int maxLoopId(List<Stmt> body) {
    int max = 0;
    for (Stmt s : body) {
      if (s instanceof Stmt.Loop l) {
        max = Math.max(max, Math.max(l.id(), maxLoopId(l.body())));
      }
    }
    return max;
  }

  /** The names of the arrays that {@code body} stores or accumulates into, loops included. */
  public static Set<String> writtenArrays(List<Stmt> body) {
    Set<String> out = new HashSet<>();
    for (Stmt s : body) {
      if (s instanceof Stmt.Loop l) {
        out.addAll(writtenArrays(l.body()));
      } else {
        arraysWritten(s).forEach(a -> out.add(a.name()));
      }
    }
    return out;
  }

  /** The loads of the array named {@code array} in {@code roots} and their operands, each once. */
  public static List<Expr.Load> loadsOf(Collection<Expr> roots, String array) {
    List<Expr.Load> out = new ArrayList<>();
    for (Expr.Load l : loads(roots)) {
      if (l.array().name().equals(array)) {
        out.add(l);
      }
    }
    return out;
  }

  /** Every load in {@code roots} and their operands, each once. */
  public static List<Expr.Load> loads(Collection<Expr> roots) {
    List<Expr.Load> out = new ArrayList<>();
    for (Expr e : nodes(roots)) {
      if (e instanceof Expr.Load l) {
        out.add(l);
      }
    }
    return out;
  }

  /** Every node of {@code roots} and their operands, each once, in the order a depth-first walk meets them. */
  public static List<Expr> nodes(Collection<Expr> roots) {
    List<Expr> out = new ArrayList<>();
    Set<Expr> seen = new HashSet<>();
    ArrayDeque<Expr> work = new ArrayDeque<>(roots);
    while (!work.isEmpty()) {
      Expr e = work.pop();
      if (seen.add(e)) {
        out.add(e);
        work.addAll(e.operands());
      }
    }
    return out;
  }
}
