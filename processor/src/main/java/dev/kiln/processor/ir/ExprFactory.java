package dev.kiln.processor.ir;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Makes {@link Expr} nodes, hash-consed: a structurally equal node is returned instead of a new
 * one. Folds constants and the identities that are exact in every type (integer {@code x + 0},
 * {@code x * 1}, boolean {@code true && x}, selects on a constant, casts to the same type); it never
 * reassociates floating-point arithmetic.
 */
public final class ExprFactory {
  private final Map<Key, Expr> interned = new HashMap<>();
  private final Set<String> varNames = new HashSet<>();
  private int nextId;

  /**
   * The identity of a node: its kind, payload, type and operand nodes. Operands compare by
   * identity (Expr keeps Object's equals), so nodes from another factory, such as the variables a
   * rewrite keeps, can never be confused with this factory's.
   */
  private record Key(String kind, Object payload, ScalarType type, List<Expr> operands) {}

  private static List<Expr> operands(Expr... operands) {
    return List.of(operands);
  }

  @SuppressWarnings("unchecked")
  private <T extends Expr> T intern(Key key, java.util.function.IntFunction<T> make) {
    Expr found = interned.get(key);
    if (found == null) {
      found = make.apply(nextId++);
      interned.put(key, found);
    }
    return (T) found;
  }

  // ---- leaves ----

  public Expr.Const constant(ScalarType type, double value) {
    if (type.isFloating()) {
      double v = type == ScalarType.FLOAT ? (double) (float) value : value;
      long bits = Double.doubleToLongBits(v);
      return intern(
          new Key("const", bits, type, List.of()), id -> new Expr.Const(id, type, v, (long) v));
    }
    long v = type == ScalarType.INT ? (int) (long) value : (long) value;
    return integral(type, v);
  }

  public Expr.Const integral(ScalarType type, long value) {
    if (type.isFloating()) {
      return constant(type, value);
    }
    long v = type == ScalarType.INT ? (int) value : type == ScalarType.SHORT ? (short) value
        : type == ScalarType.BYTE ? (byte) value : type == ScalarType.BOOL ? (value != 0 ? 1 : 0) : value;
    return intern(new Key("const", v, type, List.of()), id -> new Expr.Const(id, type, v, v));
  }

  public Expr.Const bool(boolean value) {
    return integral(ScalarType.BOOL, value ? 1 : 0);
  }

  public Expr.Const trueValue() {
    return bool(true);
  }

  public Expr.ScalarRef scalar(Param.Scalar param) {
    return intern(
        new Key("scalar", param, param.type(), List.of()), id -> new Expr.ScalarRef(id, param));
  }

  /**
   * A fresh variable, never equal to another; its name is made unique by a suffix among the
   * variables made since the last {@link #startOperator()}.
   */
  /** A new variable named {@code name}, or {@code name_2}, {@code name_3}... if taken; {@code name} is its source name. */
  public Expr.Var newVar(String name, ScalarType type, Expr.VarKind kind) {
    return newVar(name, name, type, kind);
  }

  /** A variable named {@code name} (made unique) in generated code and {@code sourceName} in diagnostics. */
  public Expr.Var newVar(String name, String sourceName, ScalarType type, Expr.VarKind kind) {
    String unique = name;
    for (int n = 2; !varNames.add(unique); n++) {
      unique = name + "_" + n;
    }
    return new Expr.Var(nextId++, unique, sourceName, type, kind);
  }

  /** Starts a new namespace for variable names; call before lowering each operator. */
  public void startOperator() {
    varNames.clear();
  }

  /**
   * Runs {@code work}, which may start operators of its own (a called operator lowered, or read
   * from the classpath, in the middle of another), and then restores the variable names of the
   * operator in progress, so the variables it makes afterwards stay distinct from its earlier ones.
   */
  public <T> T aside(Supplier<T> work) {
    Set<String> saved = new HashSet<>(varNames);
    try {
      return work.get();
    } finally {
      varNames.clear();
      varNames.addAll(saved);
    }
  }

  /**
   * The node {@code e} with its operands replaced by {@code operands} (same arity and order as
   * {@link Expr#operands()}), re-simplified; loads and integer divisions move to {@code scope}.
   */
  public Expr rebuild(Expr e, List<Expr> operands, int scope) {
    if (e instanceof Expr.Load l) {
      return load(l.array(), operands.get(0), operands.get(1), scope);
    }
    if (e instanceof Expr.Unary u) {
      return unary(u.op(), operands.get(0));
    }
    if (e instanceof Expr.Binary b) {
      return binary(b.op(), operands.get(0), operands.get(1), scope);
    }
    if (e instanceof Expr.Select) {
      return select(operands.get(0), operands.get(1), operands.get(2));
    }
    if (e instanceof Expr.Cast) {
      return cast(e.type(), operands.get(0));
    }
    if (e instanceof Expr.Call c) {
      return call(c.fn(), c.type(), operands);
    }
    return e;
  }

  /**
   * {@code e} with the leaves in {@code replace} substituted, every node rebuilt once (the DAG's
   * sharing is kept); used to inline elementwise operators.
   */
  public Expr substitute(Expr e, Map<Expr, Expr> replace, int scope) {
    return substitute(e, replace, scope, new HashMap<>());
  }

  private Expr substitute(Expr e, Map<Expr, Expr> replace, int scope, Map<Expr, Expr> memo) {
    Expr direct = replace.get(e);
    if (direct != null) {
      return direct;
    }
    Expr done = memo.get(e);
    if (done != null) {
      return done;
    }
    List<Expr> ops = e.operands();
    Expr out = e;
    if (!ops.isEmpty()) {
      List<Expr> next = new ArrayList<>(ops.size());
      for (Expr o : ops) {
        next.add(substitute(o, replace, scope, memo));
      }
      out = rebuild(e, next, scope);
    }
    memo.put(e, out);
    return out;
  }

  // ---- memory ----

  public Expr load(Param.Array array, Expr index, Expr guard, int scope) {
    if (guard instanceof Expr.Const c && c.isFalse()) {
      return constant(array.elementType(), 0);
    }
    return intern(
        new Key("load", List.of(array, scope), array.elementType(), operands(index, guard)),
        id -> new Expr.Load(id, array, index, guard, scope));
  }

  // ---- arithmetic ----

  public Expr unary(UnaryOp op, Expr x) {
    if (x instanceof Expr.Const c) {
      switch (op) {
        case NEG:
          return x.type().isFloating()
              ? constant(x.type(), -c.floatingValue())
              : integral(x.type(), -c.integralValue());
        case NOT:
          return bool(!c.booleanValue());
        case BIT_NOT:
          return integral(x.type(), ~c.integralValue());
        default:
          break;
      }
    }
    if (x instanceof Expr.Unary u && u.op() == op && op != UnaryOp.NEG) {
      return u.operand(); // !!x == x, ~~x == x (not -(-x): exact too, but keep NEG visible)
    }
    return intern(new Key("unary", op, x.type(), operands(x)), id -> new Expr.Unary(id, op, x));
  }

  /**
   * A binary node. For arithmetic the caller has promoted both sides to one type; comparisons and
   * logical operators give {@code BOOL}; a shift has its left operand's type.
   *
   * @param scope the loop the expression was written in (matters only for integer {@code / %})
   */
  public Expr binary(BinaryOp op, Expr a, Expr b, int scope) {
    ScalarType type =
        op.isComparison() || op == BinaryOp.LAND || op == BinaryOp.LOR
            ? ScalarType.BOOL
            : a.type();
    Expr folded = fold(op, a, b, type);
    if (folded != null) {
      return folded;
    }
    boolean traps = a.type().isIntegral() && (op == BinaryOp.DIV || op == BinaryOp.REM);
    int s = traps ? scope : -1;
    return intern(
        new Key("binary", List.of(op, s), type, operands(a, b)),
        id -> new Expr.Binary(id, op, a, b, type, s));
  }

  private Expr fold(BinaryOp op, Expr a, Expr b, ScalarType type) {
    Expr.Const ca = a instanceof Expr.Const c ? c : null;
    Expr.Const cb = b instanceof Expr.Const c ? c : null;
    if (op == BinaryOp.LAND) {
      if (ca != null) return ca.booleanValue() ? b : ca;
      if (cb != null) return cb.booleanValue() ? a : cb;
      if (a == b) return a;
      return null;
    }
    if (op == BinaryOp.LOR) {
      if (ca != null) return ca.booleanValue() ? ca : b;
      if (cb != null) return cb.booleanValue() ? cb : a;
      if (a == b) return a;
      return null;
    }
    if (!a.type().isIntegral()) {
      return null;
    }
    if (ca != null && cb != null) {
      long x = ca.integralValue();
      long y = cb.integralValue();
      switch (op) {
        case ADD: return integral(type, x + y);
        case SUB: return integral(type, x - y);
        case MUL: return integral(type, x * y);
        case DIV: return y == 0 ? null : integral(type, type == ScalarType.INT ? (int) x / (int) y : x / y);
        case REM: return y == 0 ? null : integral(type, type == ScalarType.INT ? (int) x % (int) y : x % y);
        case LT: return bool(x < y);
        case LE: return bool(x <= y);
        case GT: return bool(x > y);
        case GE: return bool(x >= y);
        case EQ: return bool(x == y);
        case NE: return bool(x != y);
        default: return null;
      }
    }
    if (op == BinaryOp.ADD && isZero(cb)) return a;
    if (op == BinaryOp.ADD && isZero(ca)) return b;
    if (op == BinaryOp.SUB && isZero(cb)) return a;
    if (op == BinaryOp.MUL && isOne(cb)) return a;
    if (op == BinaryOp.DIV && isOne(cb)) return a;
    if (op == BinaryOp.MUL && isOne(ca)) return b;
    if (op == BinaryOp.MUL && (isZero(ca) || isZero(cb))) return integral(type, 0);
    return null;
  }

  private static boolean isZero(Expr.Const c) {
    return c != null && c.integralValue() == 0;
  }

  private static boolean isOne(Expr.Const c) {
    return c != null && c.integralValue() == 1;
  }

  public Expr select(Expr cond, Expr ifTrue, Expr ifFalse) {
    if (cond instanceof Expr.Const c) {
      return c.booleanValue() ? ifTrue : ifFalse;
    }
    if (ifTrue == ifFalse) {
      return ifTrue;
    }
    if (cond instanceof Expr.Unary u && u.op() == UnaryOp.NOT) {
      return select(u.operand(), ifFalse, ifTrue);
    }
    if (ifTrue instanceof Expr.Select s && s.cond() == cond) {
      return select(cond, s.ifTrue(), ifFalse);
    }
    if (ifFalse instanceof Expr.Select s && s.cond() == cond) {
      return select(cond, ifTrue, s.ifFalse());
    }
    return intern(
        new Key("select", null, ifTrue.type(), operands(cond, ifTrue, ifFalse)),
        id -> new Expr.Select(id, cond, ifTrue, ifFalse));
  }

  public Expr cast(ScalarType type, Expr x) {
    if (x.type() == type) {
      return x;
    }
    if (x instanceof Expr.Const c && type != ScalarType.BOOL && x.type() != ScalarType.BOOL) {
      if (type.isFloating()) {
        if (x.type().isFloating()) {
          return constant(type, c.floatingValue());
        }
        // round once, as Java's long-to-float conversion does (not through double)
        return constant(type, type == ScalarType.FLOAT ? (double) (float) c.integralValue() : (double) c.integralValue());
      }
      if (x.type().isFloating()) {
        double v = c.floatingValue();
        return integral(type, type == ScalarType.LONG ? (long) v : (long) (int) v); // (short) f is (short) (int) f
      }
      return integral(type, c.integralValue());
    }
    return intern(new Key("cast", null, type, operands(x)), id -> new Expr.Cast(id, type, x));
  }

  /** A size polynomial over {@code @Dim}s as an int expression, each {@code @Dim} the scalar {@code dims} names. */
  public Expr poly(Poly p, java.util.function.Function<String, Param.Scalar> dims) {
    return polyOf(p, s -> scalar(dims.apply(s)));
  }

  /** A size polynomial as an int expression, each symbol the expression {@code symbols} gives for it. */
  public Expr polyOf(Poly p, java.util.function.Function<String, Expr> symbols) {
    Expr sum = integral(ScalarType.INT, 0);
    for (java.util.Map.Entry<List<String>, Long> t : p.terms().entrySet()) {
      Expr term = integral(ScalarType.INT, t.getValue());
      for (String s : t.getKey()) {
        term = binary(BinaryOp.MUL, term, symbols.apply(s), -1);
      }
      sum = binary(BinaryOp.ADD, sum, term, -1);
    }
    return sum;
  }

  public Expr call(MathFn fn, ScalarType type, List<Expr> args) {
    return intern(
        new Key("call", fn, type, operands(args.toArray(new Expr[0]))),
        id -> new Expr.Call(id, fn, type, args));
  }
}
