package dev.kiln.processor.codegen.cpu;

import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.transform.Rewriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Unroll-and-jam of a row kernel's rows: the worker of rows {@code b, b+1, .., b+ROWS-1} as one
 * body, each of its sequential loops fused across the rows (one loop whose iteration does every
 * row's iteration, each row keeping its own carried values). A sum kept in index order is a chain
 * of dependent adds, each waiting for the last (3 to 4 cycles on these CPUs); four rows' chains
 * side by side keep the adder busy, and each row's sum still adds the same terms in the same order,
 * so the floats are the source's. (A row sum over 2048x2048 floats on one thread: 3.3 ms, jammed
 * 1.4 ms.)
 *
 * <p>Legal because workers of a grid are independent: any interleaving of two workers' effects
 * that keeps each worker's own order gives the same result, and this one does (the statements
 * between loops run row by row, each row's loop iterations in order). Applies to kernels with one
 * grid dimension whose worker is a sequence of stores and innermost loops, with bounds and guards
 * that do not depend on the row, and at least one sum kept in order in a loop that {@link SimdPlan}
 * vectorises, or a scalar loop that only carries values (a recurrence: a running record, fused
 * across the rows as scalar code, each row's chain beside the others'); others are left alone.
 * Another loop that stays scalar runs row after row, unfused. Each row
 * has its own copy of the worker's scratch arrays ({@code t$r1}, .., allocated beside {@code t}).
 */
final class RowJam {
  /** Rows jammed together: enough chains to cover an add's latency, few enough to keep vectors in registers. */
  static final int ROWS = 4;

  private RowJam() {}

  /** The jammed operator (grid variable {@code b} standing for the first of ROWS rows), or null. */
  static OperatorIr.Grid jam(OperatorIr.Grid op) {
    if (op.grid().size() != 1 || !qualifies(op.body())) {
      return null;
    }
    Expr.Var row = op.grid().get(0).var();
    ExprFactory f = new ExprFactory();
    List<List<Stmt>> copies = new ArrayList<>();
    Map<Expr, String> names = new HashMap<>();
    List<Param> params = new ArrayList<>(op.params());
    for (int j = 0; j < ROWS; j++) {
      Map<Param.Array, Param.Array> scratch = new HashMap<>();
      for (Param.Array a : op.scratch()) {
        Param.Array mine = j == 0 ? a : new Param.Array(a.name() + "$r" + j, params.size(), a.elementType(), a.shape(), a.role());
        scratch.put(a, mine);
        if (j > 0) {
          params.add(mine);
        }
      }
      copies.add(copy(op, f, row, j, names, scratch));
    }
    List<Stmt> body = new ArrayList<>();
    List<Stmt> first = copies.get(0);
    int start = 0;
    for (int i = 0; i <= first.size(); i++) {
      if (i < first.size() && !(first.get(i) instanceof Stmt.Loop)) {
        continue;
      }
      for (List<Stmt> c : copies) {
        body.addAll(c.subList(start, i)); // the stores before this loop, row by row
      }
      if (i < first.size() && !fusable((Stmt.Loop) first.get(i))) {
        for (List<Stmt> c : copies) {
          body.add(c.get(i)); // one row after another
        }
      } else if (i < first.size()) {
        Stmt.Loop l = (Stmt.Loop) first.get(i);
        List<Stmt.Carried> carried = new ArrayList<>();
        List<Stmt> inner = new ArrayList<>();
        for (List<Stmt> c : copies) {
          Stmt.Loop lj = (Stmt.Loop) c.get(i);
          carried.addAll(lj.carried());
          inner.addAll(lj.body());
        }
        Stmt.Loop fused = new Stmt.Loop(l.id(), l.index(), l.lo(), l.hi(), l.step(), l.guard(), carried, inner, l.origin());
        if (!recurrence(l) && SimdPlan.loopRefusal(fused) != null) {
          return null;
        }
        body.add(fused);
      }
      start = i + 1;
    }
    return new OperatorIr.Grid(op.owner(), op.name(), params, op.grid(), body, names);
  }

  /**
   * Whether a loop is fused across the rows: it is vectorised, and folds nothing with {@code ||}
   * (four rows' masks of "seen so far" side by side ran slower than the rows one by one).
   */
  private static boolean fusable(Stmt.Loop l) {
    return SimdPlan.loopRefusal(l) == null && SimdPlan.folds(l).stream().noneMatch(f -> f.kind() == SimdPlan.FoldKind.ANY)
        || recurrence(l);
  }

  /**
   * A loop that stays scalar and only carries values (no stores): a recurrence such as a running
   * record (Welford's mean and spread, one update an element), whose chain of dependent operations
   * each row must wait on. Fused across the rows it stays scalar, each row's chain beside the
   * others' (the same operations in the same order per row).
   */
  private static boolean recurrence(Stmt.Loop l) {
    return SimdPlan.loopRefusal(l) != null && !l.carried().isEmpty() && l.body().isEmpty();
  }

  /** Stores and vectorised innermost loops, loop bounds and guards free of variables, some sum in order. */
  private static boolean qualifies(List<Stmt> body) {
    boolean inOrderSum = false;
    for (Stmt s : body) {
      if (s instanceof Stmt.Accumulate || s instanceof Stmt.Combine) {
        return false;
      }
      if (s instanceof Stmt.Loop l) {
        if (l.body().stream().anyMatch(b -> !(b instanceof Stmt.Store))
            || !SimdPlan.isTrue(l.guard()) || usesVariables(l.lo()) || usesVariables(l.hi())) {
          return false;
        }
        if (recurrence(l)) {
          inOrderSum = true; // a chain of dependent operations, as a sum in order is
          continue;
        }
        if (SimdPlan.loopRefusal(l) != null) {
          continue; // stays scalar, row after row
        }
        for (SimdPlan.Fold fold : SimdPlan.folds(l)) {
          // (a derived gradient's any-order sum is sixteen partials: its chains are side by side already)
          inOrderSum |= fold.kind() == SimdPlan.FoldKind.IN_ORDER && !fold.carried().anyOrder();
        }
      }
    }
    return inOrderSum;
  }

  private static boolean usesVariables(Expr e) {
    if (e instanceof Expr.Var) {
      return true;
    }
    for (Expr o : e.operands()) {
      if (usesVariables(o)) {
        return true;
      }
    }
    return false;
  }

  /** The worker's statements for row {@code row + j}: its carried values renamed, loop indices kept (the loops fuse). */
  private static List<Stmt> copy(OperatorIr.Grid op, ExprFactory f, Expr.Var row, int j, Map<Expr, String> names,
      Map<Param.Array, Param.Array> scratch) {
    Map<Expr.Var, Expr> vars = new HashMap<>();
    if (j > 0) {
      vars.put(row, f.binary(BinaryOp.ADD, row, f.integral(row.type(), j), -1));
      for (Stmt s : op.body()) {
        if (s instanceof Stmt.Loop l) {
          for (Stmt.Carried c : l.carried()) {
            vars.put(c.phi(), f.newVar(c.phi().name() + "_r" + j, c.phi().type(), c.phi().kind()));
            vars.put(c.result(), f.newVar(c.result().name() + "_r" + j, c.result().type(), c.result().kind()));
          }
        }
      }
    }
    Rewriter r = new Rewriter(f, (orig, rebuilt) -> {
      if (orig instanceof Expr.Var v && vars.containsKey(v)) {
        return vars.get(v);
      }
      if (rebuilt instanceof Expr.Load l && scratch.containsKey(l.array())) {
        return f.load(scratch.get(l.array()), l.index(), l.guard(), l.scope()); // each row its own slice
      }
      return rebuilt;
    });
    List<Stmt> out = new ArrayList<>();
    for (Stmt s : op.body()) {
      if (s instanceof Stmt.Store st) {
        out.add(new Stmt.Store(scratch.getOrDefault(st.array(), st.array()), r.rewrite(st.index()), r.rewrite(st.value()),
            r.rewrite(st.guard()), st.origin()));
      } else {
        Stmt.Loop l = (Stmt.Loop) s;
        List<Stmt> inner = new ArrayList<>();
        for (Stmt b : l.body()) {
          Stmt.Store st = (Stmt.Store) b;
          inner.add(new Stmt.Store(scratch.getOrDefault(st.array(), st.array()), r.rewrite(st.index()), r.rewrite(st.value()),
              r.rewrite(st.guard()), st.origin()));
        }
        List<Stmt.Carried> carried = new ArrayList<>();
        for (Stmt.Carried c : l.carried()) {
          carried.add(c.with((Expr.Var) r.rewrite(c.phi()), r.rewrite(c.init()), r.rewrite(c.next()),
              (Expr.Var) r.rewrite(c.result())));
        }
        out.add(new Stmt.Loop(l.id(), l.index(), r.rewrite(l.lo()), r.rewrite(l.hi()), l.step(), r.rewrite(l.guard()),
            carried, inner, l.origin()));
      }
    }
    Set<Expr> named = new HashSet<>();
    op.names().forEach((e, n) -> {
      Expr mapped = e instanceof Expr.Var ? null : r.rewrite(e);
      if (mapped != null && !mapped.operands().isEmpty() && named.add(mapped)) {
        names.putIfAbsent(mapped, j == 0 ? n : n + "_r" + j);
      }
    });
    return out;
  }
}
