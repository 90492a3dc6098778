package dev.kiln.processor.fusion;

import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.PolyExpr;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.StmtWalk;
import dev.kiln.processor.ir.transform.ExprMapper;
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
  /**
   * The statements that run once after every worker, when the kernel reduces over all its workers
   * and the calls that read the totals joined it ({@link OperatorIr.Grid#finish}).
   */
  final List<Stmt> finish = new ArrayList<>();
  boolean reduces;

  Group(CallInstance first) {
    this.grid = first.grid();
    this.extents = first.extents();
    add(first.index(), first.body());
  }

  private Group(List<Expr.Var> grid, List<Poly> extents) {
    this.grid = grid;
    this.extents = extents;
  }

  /**
   * This kernel with only its first {@code keep} grid dimensions parallel: the others become
   * sequential loops around the worker's code (any order of the workers is a valid one, so one
   * worker may run them in turn).
   */
  Group demotedTo(int keep, ExprFactory f, java.util.Map<String, Param.Scalar> dims, java.util.function.IntSupplier loopIds) {
    List<Integer> kept = new ArrayList<>();
    for (int k = 0; k < keep; k++) {
      kept.add(k);
    }
    return demotedTo(kept, f, dims, loopIds);
  }

  /**
   * This kernel with only the grid dimensions {@code kept} (ascending) parallel: the others become
   * sequential loops around the worker's code, outermost first in the grid's order, so that each
   * worker meets its terms in the order the plain Java's loops do.
   */
  Group demotedTo(List<Integer> kept, ExprFactory f, java.util.Map<String, Param.Scalar> dims,
      java.util.function.IntSupplier loopIds) {
    List<Expr.Var> keptGrid = new ArrayList<>();
    List<Poly> keptExtents = new ArrayList<>();
    for (int k : kept) {
      keptGrid.add(grid.get(k));
      keptExtents.add(extents.get(k));
    }
    Group out = new Group(keptGrid, keptExtents);
    java.util.Map<Expr.Var, Expr> vars = new java.util.HashMap<>();
    List<Expr.Var> loops = new ArrayList<>();
    List<Poly> loopExtents = new ArrayList<>();
    List<Integer> ids = new ArrayList<>();
    for (int k = 0; k < grid.size(); k++) {
      if (!kept.contains(k)) {
        Expr.Var v = f.newVar(grid.get(k).name(), ScalarType.INT, Expr.VarKind.LOOP_INDEX);
        vars.put(grid.get(k), v);
        loops.add(v);
        loopExtents.add(extents.get(k));
        ids.add(loopIds.getAsInt());
      }
    }
    int top = ids.get(ids.size() - 1);
    List<Stmt> inner = new ExprMapper(f, vars, f::scalar, a -> a, s -> s == 0 ? top : s, null, null).map(body);
    for (int k = loops.size() - 1; k >= 0; k--) {
      inner = List.of(new Stmt.Loop(ids.get(k), loops.get(k), f.integral(ScalarType.INT, 0),
          PolyExpr.of(f, loopExtents.get(k), dims), 1, f.trueValue(), List.of(), inner, null));
    }
    out.body.addAll(inner);
    out.calls.addAll(calls);
    out.written.addAll(written);
    out.finish.addAll(finish);
    out.reduces = reduces;
    return out;
  }

  void add(int call, List<Stmt> stmts) {
    calls.add(call);
    body.addAll(stmts);
    collect(stmts);
  }

  /** Adds a call that runs once after every worker (it reads what they reduced over all of them). */
  void addFinish(int call, List<Stmt> stmts) {
    calls.add(call);
    finish.addAll(stmts);
    written.addAll(arraysWritten(stmts));
  }

  /** The arrays that {@code stmts} store, accumulate or combine into, loops included. */
  static Set<Param.Array> arraysWritten(List<Stmt> stmts) {
    Set<Param.Array> out = new LinkedHashSet<>();
    for (Stmt s : stmts) {
      if (s instanceof Stmt.Loop l) {
        out.addAll(arraysWritten(l.body()));
      } else {
        out.addAll(StmtWalk.arraysWritten(s));
      }
    }
    return out;
  }

  /** The worker's statements and those after every worker: everything the kernel runs. */
  List<Stmt> everything() {
    List<Stmt> all = new ArrayList<>(body);
    all.addAll(finish);
    return all;
  }

  private void collect(List<Stmt> stmts) {
    for (Stmt s : stmts) {
      if (s instanceof Stmt.Loop l) {
        collect(l.body());
      } else {
        written.addAll(StmtWalk.arraysWritten(s));
        reduces |= StmtWalk.reduces(s);
      }
    }
  }

  /**
   * The store of {@code a} at {@code index} when it is the kernel's only write of {@code a}, at the
   * top level of the worker and unconditional: then its value is what a later read there sees.
   */
  Stmt.Store topLevelStore(Param.Array a, Expr index) {
    if (writes(body, a) != 1) {
      return null;
    }
    for (Stmt s : body) {
      if (s instanceof Stmt.Store st && st.array() == a) {
        return st.index() == index && st.guard() instanceof Expr.Const c && c.isTrue() ? st : null;
      }
    }
    return null;
  }

  private static int writes(List<Stmt> stmts, Param.Array a) {
    int n = 0;
    for (Stmt s : stmts) {
      if (s instanceof Stmt.Loop l) {
        n += writes(l.body(), a);
      } else if (StmtWalk.arraysWritten(s).contains(a)) {
        n++;
      }
    }
    return n;
  }

  static boolean accumulates(List<Stmt> stmts) {
    for (Stmt s : stmts) {
      if (StmtWalk.reduces(s) || s instanceof Stmt.Loop l && accumulates(l.body())) {
        return true;
      }
    }
    return false;
  }
}
