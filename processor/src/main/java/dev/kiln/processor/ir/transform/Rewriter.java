package dev.kiln.processor.ir.transform;

import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Stmt;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Rebuilds an operator's IR bottom-up through a fresh {@link ExprFactory}, letting a pass replace
 * nodes: {@code hook} gets each original node and its rebuilt form (operands already rewritten)
 * and returns what to use. Every node is rewritten once, so the DAG's sharing survives; variables
 * are kept as they are.
 */
public final class Rewriter {
  private final ExprFactory f;
  private final BiFunction<Expr, Expr, Expr> hook;
  private final Map<Expr, Expr> memo = new HashMap<>();

  public Rewriter(ExprFactory f, BiFunction<Expr, Expr, Expr> hook) {
    this.f = f;
    this.hook = hook;
  }

  public ExprFactory factory() {
    return f;
  }

  public Expr rewrite(Expr e) {
    Expr done = memo.get(e);
    if (done != null) {
      return done;
    }
    Expr rebuilt;
    if (e instanceof Expr.Const c) {
      rebuilt = c.type().isFloating() ? f.constant(c.type(), c.floatingValue()) : f.integral(c.type(), c.integralValue());
    } else if (e instanceof Expr.ScalarRef s) {
      rebuilt = f.scalar(s.param());
    } else if (e instanceof Expr.Var) {
      rebuilt = e;
    } else {
      List<Expr> ops = new ArrayList<>();
      for (Expr o : e.operands()) {
        ops.add(rewrite(o));
      }
      int scope = e instanceof Expr.Load l ? l.scope() : e instanceof Expr.Binary b ? b.scope() : -1;
      rebuilt = f.rebuild(e, ops, scope);
    }
    Expr out = hook.apply(e, rebuilt);
    memo.put(e, out);
    return out;
  }

  public List<Stmt> rewrite(List<Stmt> body, BiFunction<Stmt, Expr, Expr> indexHook) {
    List<Stmt> out = new ArrayList<>();
    for (Stmt s : body) {
      if (s instanceof Stmt.Store st) {
        out.add(new Stmt.Store(st.array(), indexHook.apply(s, rewrite(st.index())), rewrite(st.value()), rewrite(st.guard()), st.origin()));
      } else if (s instanceof Stmt.Accumulate a) {
        out.add(new Stmt.Accumulate(a.array(), indexHook.apply(s, rewrite(a.index())), a.op(), rewrite(a.value()), rewrite(a.guard()), a.origin()));
      } else if (s instanceof Stmt.Combine c) {
        out.add(new Stmt.Combine(c.monoid(), c.param(), c.arrays(), indexHook.apply(s, rewrite(c.index())),
            c.values().stream().map(this::rewrite).toList(), rewrite(c.guard()), c.origin()));
      } else {
        Stmt.Loop l = (Stmt.Loop) s;
        List<Stmt.Carried> carried = new ArrayList<>();
        for (Stmt.Carried c : l.carried()) {
          carried.add(c.with(c.phi(), rewrite(c.init()), null, c.result()));
        }
        List<Stmt> inner = rewrite(l.body(), indexHook);
        for (int i = 0; i < carried.size(); i++) {
          Stmt.Carried c = carried.get(i);
          carried.set(i, c.with(c.phi(), c.init(), rewrite(l.carried().get(i).next()), c.result()));
        }
        out.add(new Stmt.Loop(l.id(), l.index(), rewrite(l.lo()), rewrite(l.hi()), l.step(), rewrite(l.guard()), carried, inner, l.origin()));
      }
    }
    return out;
  }

  /** The operator with its body (or result) rewritten, and its source names carried over. */
  public OperatorIr rewrite(OperatorIr op, BiFunction<Stmt, Expr, Expr> indexHook) {
    if (op instanceof OperatorIr.Grid g) {
      return rewrite(g, indexHook);
    }
    if (op instanceof OperatorIr.Elementwise e) {
      return new OperatorIr.Elementwise(e.owner(), e.name(), e.params(), e.resultType(), rewrite(e.result()), names(e));
    }
    return op;
  }

  /** The grid operator with its body rewritten, and its source names carried over. */
  public OperatorIr.Grid rewrite(OperatorIr.Grid op, BiFunction<Stmt, Expr, Expr> indexHook) {
    List<Stmt> body = rewrite(op.body(), indexHook);
    List<Stmt> finish = rewrite(op.finish(), indexHook);
    return new OperatorIr.Grid(op.owner(), op.name(), op.params(), op.grid(), body, names(op), finish);
  }

  private Map<Expr, String> names(OperatorIr op) {
    Map<Expr, String> names = new HashMap<>();
    op.names().forEach((e, n) -> {
      Expr mapped = memo.get(e);
      if (mapped != null && !mapped.operands().isEmpty()) {
        names.putIfAbsent(mapped, n);
      }
    });
    return names;
  }
}
