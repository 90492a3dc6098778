package dev.kiln.processor.fusion;

import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.Stmt;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** A kernel being built by the merger: a worker grid and the fused calls' statements, in order. */
final class Group {
  final List<Expr.Var> grid;
  final List<Poly> extents;
  final List<Stmt> body = new ArrayList<>();
  final List<Integer> calls = new ArrayList<>();
  final Set<Param.Array> written = new LinkedHashSet<>();
  boolean reduces;

  Group(CallInstance first) {
    this.grid = first.grid();
    this.extents = first.extents();
    add(first.index(), first.body());
  }

  void add(int call, List<Stmt> stmts) {
    calls.add(call);
    body.addAll(stmts);
    collect(stmts);
  }

  private void collect(List<Stmt> stmts) {
    for (Stmt s : stmts) {
      if (s instanceof Stmt.Store st) {
        written.add(st.array());
      } else if (s instanceof Stmt.Accumulate a) {
        written.add(a.array());
        reduces = true;
      } else {
        collect(((Stmt.Loop) s).body());
      }
    }
  }

  /** The single unconditional top-level store of {@code a} at {@code index}, or null. */
  Stmt.Store topLevelStore(Param.Array a, Expr index) {
    Stmt.Store found = null;
    for (Stmt s : body) {
      if (s instanceof Stmt.Store st && st.array() == a) {
        if (found != null) {
          return null;
        }
        found = st;
      }
    }
    return found != null && found.index() == index && found.guard() instanceof Expr.Const c && c.isTrue() ? found : null;
  }

  static boolean accumulates(List<Stmt> stmts) {
    for (Stmt s : stmts) {
      if (s instanceof Stmt.Accumulate || s instanceof Stmt.Loop l && accumulates(l.body())) {
        return true;
      }
    }
    return false;
  }
}
