package dev.kiln.processor.ir.transform;

import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Stmt;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.IntUnaryOperator;

/**
 * Rebuilds expressions and statements in a target factory, renaming what they refer to: variables,
 * scalar parameters, arrays and loop scopes. Every load can also be strengthened by an extra guard
 * (so code inlined under a condition never reads where the original would not) and then handed to
 * a hook that may replace it (so a load of a fused tensor becomes its producer's value). Each node
 * is rebuilt once, so sharing survives.
 */
public final class ExprMapper {
  /** Replaces a rebuilt load, or returns it unchanged. */
  public interface LoadHook {
    Expr apply(Expr.Load rebuilt);
  }

  private final ExprFactory f;
  private final Map<Expr.Var, Expr> vars;
  private final Function<Param.Scalar, Expr> scalars;
  private final Function<Param.Array, Param.Array> arrays;
  private final IntUnaryOperator scopes;
  private final Expr extraGuard;
  private final LoadHook loads;
  private final Map<Expr, Expr> memo = new HashMap<>();

  public ExprMapper(ExprFactory f, Map<Expr.Var, Expr> vars, Function<Param.Scalar, Expr> scalars,
      Function<Param.Array, Param.Array> arrays, IntUnaryOperator scopes, Expr extraGuard, LoadHook loads) {
    this.f = f;
    this.vars = vars;
    this.scalars = scalars;
    this.arrays = arrays;
    this.scopes = scopes;
    this.extraGuard = extraGuard;
    this.loads = loads;
  }

  /** A mapper that changes nothing but the load hook. */
  public static ExprMapper loadsOnly(ExprFactory f, LoadHook loads) {
    return new ExprMapper(f, Map.of(), f::scalar, a -> a, s -> s, null, loads);
  }

  public Expr map(Expr e) {
    Expr done = memo.get(e);
    if (done != null) {
      return done;
    }
    Expr out;
    if (e instanceof Expr.Const c) {
      out = c.type().isFloating() ? f.constant(c.type(), c.floatingValue()) : f.integral(c.type(), c.integralValue());
    } else if (e instanceof Expr.ScalarRef s) {
      out = scalars.apply(s.param());
    } else if (e instanceof Expr.Var v) {
      out = vars.getOrDefault(v, v);
    } else if (e instanceof Expr.Load l) {
      Expr guard = map(l.guard());
      if (extraGuard != null) {
        guard = f.binary(BinaryOp.LAND, extraGuard, guard, -1);
      }
      Expr rebuilt = f.load(arrays.apply(l.array()), map(l.index()), guard, scopes.applyAsInt(l.scope()));
      out = rebuilt instanceof Expr.Load rl && loads != null ? loads.apply(rl) : rebuilt;
    } else {
      List<Expr> ops = new ArrayList<>();
      for (Expr o : e.operands()) {
        ops.add(map(o));
      }
      int scope = e instanceof Expr.Binary b && b.scope() >= 0 ? scopes.applyAsInt(b.scope()) : -1;
      out = f.rebuild(e, ops, scope);
    }
    memo.put(e, out);
    return out;
  }

  /** The statements mapped; loop ids go through the scope map, loop variables through the variable map. */
  public List<Stmt> map(List<Stmt> body) {
    List<Stmt> out = new ArrayList<>();
    for (Stmt s : body) {
      if (s instanceof Stmt.Store st) {
        out.add(new Stmt.Store(arrays.apply(st.array()), map(st.index()), map(st.value()), map(st.guard()), st.origin()));
      } else if (s instanceof Stmt.Accumulate a) {
        out.add(new Stmt.Accumulate(arrays.apply(a.array()), map(a.index()), a.op(), map(a.value()), map(a.guard()), a.origin()));
      } else if (s instanceof Stmt.Combine c) {
        out.add(new Stmt.Combine(c.monoid(), c.param(), c.arrays().stream().map(arrays).toList(), map(c.index()),
            c.values().stream().map(this::map).toList(), map(c.guard()), c.origin()));
      } else {
        Stmt.Loop l = (Stmt.Loop) s;
        List<Stmt.Carried> carried = new ArrayList<>();
        for (Stmt.Carried c : l.carried()) {
          carried.add(c.with((Expr.Var) map(c.phi()), map(c.init()), null, (Expr.Var) map(c.result())));
        }
        List<Stmt> inner = map(l.body());
        for (int i = 0; i < carried.size(); i++) {
          Stmt.Carried c = carried.get(i);
          carried.set(i, c.with(c.phi(), c.init(), map(l.carried().get(i).next()), c.result()));
        }
        out.add(new Stmt.Loop(scopes.applyAsInt(l.id()), (Expr.Var) map(l.index()), map(l.lo()), map(l.hi()), l.step(),
            map(l.guard()), carried, inner, l.origin()));
      }
    }
    return out;
  }
}
