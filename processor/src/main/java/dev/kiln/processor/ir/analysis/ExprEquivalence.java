package dev.kiln.processor.ir.analysis;

import dev.kiln.processor.ir.Expr;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Structural equality of two expressions, possibly from different factories: the same kinds of
 * node with the same operators, constants (by their bits), parameters and arrays (by name) and
 * operands, where each variable in {@code vars} stands for the variable it maps to and every other
 * variable only for itself. Shared subexpressions are compared once.
 */
public final class ExprEquivalence {
  private final Map<Expr.Var, Expr.Var> vars;
  private final Map<Expr, Expr> matched = new IdentityHashMap<>();

  private ExprEquivalence(Map<Expr.Var, Expr.Var> vars) {
    this.vars = vars;
  }

  /** Whether {@code a} computes what {@code b} does, {@code a}'s variables renamed by {@code vars}. */
  public static boolean same(Expr a, Expr b, Map<Expr.Var, Expr.Var> vars) {
    return new ExprEquivalence(vars).same(a, b);
  }

  private boolean same(Expr a, Expr b) {
    Expr known = matched.get(a);
    if (known != null) {
      return known == b;
    }
    if (a.getClass() != b.getClass() || a.type() != b.type() || a.operands().size() != b.operands().size()) {
      return false;
    }
    boolean ok;
    if (a instanceof Expr.Var va) {
      ok = vars.getOrDefault(va, va) == b;
    } else if (a instanceof Expr.Const ca) {
      Expr.Const cb = (Expr.Const) b;
      ok = a.type().isFloating()
          ? Double.doubleToRawLongBits(ca.floatingValue()) == Double.doubleToRawLongBits(cb.floatingValue())
          : ca.integralValue() == cb.integralValue();
    } else if (a instanceof Expr.ScalarRef sa) {
      ok = sa.param().name().equals(((Expr.ScalarRef) b).param().name());
    } else if (a instanceof Expr.Load la) {
      ok = la.array().name().equals(((Expr.Load) b).array().name());
    } else if (a instanceof Expr.Unary ua) {
      ok = ua.op() == ((Expr.Unary) b).op();
    } else if (a instanceof Expr.Binary ba) {
      ok = ba.op() == ((Expr.Binary) b).op();
    } else if (a instanceof Expr.Call ca) {
      ok = ca.fn() == ((Expr.Call) b).fn();
    } else {
      ok = true; // a select or a cast: its type and operands say it all
    }
    for (int i = 0; ok && i < a.operands().size(); i++) {
      ok = same(a.operands().get(i), b.operands().get(i));
    }
    if (ok) {
      matched.put(a, b);
    }
    return ok;
  }
}
