package dev.kiln.processor.autodiff;

import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.MathFn;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.UnaryOp;
import java.util.ArrayList;
import java.util.List;

/**
 * The chain rule for one node: given the adjoint {@code a} of a floating-point node, the adjoints it
 * passes to each of its floating-point operands. Loads, variables and constants have no operands to
 * pass to; integer and boolean operands (indices, conditions) never receive an adjoint.
 *
 * <p>Non-smooth functions take the usual one-sided choices: {@code abs} passes {@code a} at 0,
 * {@code min}/{@code max} pass the whole adjoint to the operand Java returns (the first on ties),
 * {@code floor ceil rint signum} pass nothing.
 */
final class Derivatives {
  private final ExprFactory f;

  /** One operand's share of a node's adjoint. */
  record Share(Expr operand, Expr adjoint) {}

  Derivatives(ExprFactory f) {
    this.f = f;
  }

  List<Share> of(Expr n, Expr a) {
    List<Share> out = new ArrayList<>();
    ScalarType t = n.type();
    if (!t.isFloating()) {
      return out;
    }
    if (a instanceof Expr.Select s && (isZero(s.ifFalse()) || isZero(s.ifTrue()))) {
      // a masked adjoint (from a branch not taken, or a guarded read) stays masked: the local
      // derivative may be infinite or NaN where the mask is off (sqrt(x) for x < 0), and 0 * NaN is NaN
      boolean onTrue = isZero(s.ifFalse());
      for (Share inner : of(n, onTrue ? s.ifTrue() : s.ifFalse())) {
        Expr zero = f.constant(inner.adjoint().type(), 0);
        out.add(new Share(inner.operand(),
            onTrue ? f.select(s.cond(), inner.adjoint(), zero) : f.select(s.cond(), zero, inner.adjoint())));
      }
      return out;
    }
    if (n instanceof Expr.Unary u) {
      if (u.op() == UnaryOp.NEG) {
        out.add(new Share(u.operand(), neg(a)));
      }
    } else if (n instanceof Expr.Binary b) {
      binary(b, a, out);
    } else if (n instanceof Expr.Select s) {
      Expr zero = f.constant(t, 0);
      out.add(new Share(s.ifTrue(), f.select(s.cond(), a, zero)));
      out.add(new Share(s.ifFalse(), f.select(s.cond(), zero, a)));
    } else if (n instanceof Expr.Cast c) {
      if (c.operand().type().isFloating()) {
        out.add(new Share(c.operand(), f.cast(c.operand().type(), a)));
      }
    } else if (n instanceof Expr.Call c) {
      call(c, a, out);
    }
    out.removeIf(s -> !s.operand().type().isFloating());
    return out;
  }

  private void binary(Expr.Binary b, Expr a, List<Share> out) {
    Expr l = b.left();
    Expr r = b.right();
    switch (b.op()) {
      case ADD -> {
        out.add(new Share(l, a));
        out.add(new Share(r, a));
      }
      case SUB -> {
        out.add(new Share(l, a));
        out.add(new Share(r, neg(a)));
      }
      case MUL -> {
        out.add(new Share(l, mul(a, r)));
        out.add(new Share(r, mul(a, l)));
      }
      case DIV -> {
        // one reciprocal for both shares: where the divisor is the same for a whole loop (a row's
        // sum, a count) it is computed once there, and each element costs multiplications, not
        // divisions (a gradient need not give its source's floats, only its derivative's)
        Expr q = div(one(b.type()), r);
        out.add(new Share(l, mul(a, q)));
        out.add(new Share(r, neg(mul(mul(a, b), q))));
      }
      case REM -> {
        // l % r == l - trunc(l / r) * r, and trunc(l / r) == (l - l % r) / r
        out.add(new Share(l, a));
        out.add(new Share(r, neg(mul(a, div(sub(l, b), r)))));
      }
      default -> {
        // comparisons and bit operations have no floating-point operands with a gradient
      }
    }
  }

  private void call(Expr.Call c, Expr a, List<Share> out) {
    ScalarType t = c.type();
    List<Expr> args = c.args();
    Expr x = args.get(0);
    Expr y = c; // the call's own value
    switch (c.fn()) {
      case UNIFORM, NORMAL -> { } // integer arguments: nothing to share
      case EXP -> out.add(new Share(x, mul(a, y)));
      case LOG -> out.add(new Share(x, div(a, x)));
      case TANH -> out.add(new Share(x, mul(a, sub(one(t), mul(y, y)))));
      case SIGMOID -> out.add(new Share(x, mul(a, mul(y, sub(one(t), y)))));
      case SQRT -> out.add(new Share(x, div(a, mul(k(t, 2), y))));
      case RSQRT -> out.add(new Share(x, neg(div(mul(a, mul(k(t, 0.5), y)), x))));
      case ABS -> out.add(new Share(x, f.select(lt(x, f.constant(t, 0)), neg(a), a)));
      case MIN, MAX -> {
        Expr first = f.binary(c.fn() == MathFn.MIN ? BinaryOp.LE : BinaryOp.GE, x, args.get(1), -1);
        Expr zero = f.constant(t, 0);
        out.add(new Share(x, f.select(first, a, zero)));
        out.add(new Share(args.get(1), f.select(first, zero, a)));
      }
      case POW -> {
        Expr e = args.get(1);
        out.add(new Share(x, mul(a, mul(e, fn(MathFn.POW, t, x, sub(e, one(t)))))));
        out.add(new Share(e, mul(a, mul(y, fn(MathFn.LOG, t, x)))));
      }
      case ERF -> out.add(new Share(x, mul(a, mul(k(t, 1.1283791670955126), fn(MathFn.EXP, t, neg(mul(x, x)))))));
      case SIN -> out.add(new Share(x, mul(a, fn(MathFn.COS, t, x))));
      case COS -> out.add(new Share(x, neg(mul(a, fn(MathFn.SIN, t, x)))));
      case TAN -> out.add(new Share(x, mul(a, add(one(t), mul(y, y)))));
      case ASIN -> out.add(new Share(x, div(a, fn(MathFn.SQRT, t, sub(one(t), mul(x, x))))));
      case ACOS -> out.add(new Share(x, neg(div(a, fn(MathFn.SQRT, t, sub(one(t), mul(x, x)))))));
      case ATAN -> out.add(new Share(x, div(a, add(one(t), mul(x, x)))));
      case ATAN2 -> {
        // atan2(p, q): d/dp = q / (p^2 + q^2), d/dq = -p / (p^2 + q^2)
        Expr q = args.get(1);
        Expr r2 = add(mul(x, x), mul(q, q));
        out.add(new Share(x, div(mul(a, q), r2)));
        out.add(new Share(q, neg(div(mul(a, x), r2))));
      }
      case SINH -> out.add(new Share(x, mul(a, fn(MathFn.COSH, t, x))));
      case COSH -> out.add(new Share(x, mul(a, fn(MathFn.SINH, t, x))));
      case LOG10 -> out.add(new Share(x, div(a, mul(x, k(t, Math.log(10))))));
      case LOG1P -> out.add(new Share(x, div(a, add(one(t), x))));
      case EXPM1 -> out.add(new Share(x, mul(a, add(y, one(t)))));
      case CBRT -> out.add(new Share(x, div(a, mul(k(t, 3), mul(y, y)))));
      case HYPOT -> {
        out.add(new Share(x, div(mul(a, x), y)));
        out.add(new Share(args.get(1), div(mul(a, args.get(1)), y)));
      }
      case FMA -> {
        out.add(new Share(x, mul(a, args.get(1))));
        out.add(new Share(args.get(1), mul(a, x)));
        out.add(new Share(args.get(2), a));
      }
      case FLOOR, CEIL, RINT, SIGNUM -> {
        // piecewise constant: no gradient
      }
    }
  }

  private static boolean isZero(Expr e) {
    return e instanceof Expr.Const c && c.type().isFloating() && c.floatingValue() == 0;
  }

  private Expr fn(MathFn fn, ScalarType t, Expr... args) {
    return f.call(fn, t, List.of(args));
  }

  private Expr one(ScalarType t) {
    return f.constant(t, 1);
  }

  private Expr k(ScalarType t, double v) {
    return f.constant(t, v);
  }

  private Expr neg(Expr e) {
    return f.unary(UnaryOp.NEG, e);
  }

  private Expr add(Expr x, Expr y) {
    return f.binary(BinaryOp.ADD, x, y, -1);
  }

  private Expr sub(Expr x, Expr y) {
    return f.binary(BinaryOp.SUB, x, y, -1);
  }

  private Expr mul(Expr x, Expr y) {
    return f.binary(BinaryOp.MUL, x, y, -1);
  }

  private Expr div(Expr x, Expr y) {
    return f.binary(BinaryOp.DIV, x, y, -1);
  }

  private Expr lt(Expr x, Expr y) {
    return f.binary(BinaryOp.LT, x, y, -1);
  }
}
