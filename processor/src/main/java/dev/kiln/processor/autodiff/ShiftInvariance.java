package dev.kiln.processor.autodiff;

import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.UnaryOp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds the values a worker's differentiated outputs do not depend on: a value {@code m} such
 * that computing the outputs with {@code m + c} in its place gives the same outputs for every
 * {@code c}. Softmax's row maximum is one: {@code exp(x - m) / sum(exp(x - m))} and log-softmax's
 * {@code x - m - log(sum(exp(x - m)))} are the same for every shift of {@code m}, which the source
 * subtracts only to keep {@code exp} from overflowing. The derivative of the outputs with respect
 * to such a value is zero, so {@link ReverseSweep} passes it no adjoint: the backward kernel then
 * neither sums the adjoint that reaches {@code m} (exactly zero, in floats a sum of rounding errors)
 * nor walks the row again to hand it to the maximum's element. JAX's {@code logsumexp} writes
 * {@code stop_gradient} on its maximum by hand; here it is proved.
 *
 * <p>The proof follows each value's <em>class</em> under the shift {@code m -> m + c}: {@code
 * SHIFT(k)}, the value moves by {@code k c} ({@code x - m} is {@code SHIFT(-1)}); {@code
 * SCALE(d)}, it is multiplied by {@code exp(d c)} ({@code exp(x - m)} is {@code SCALE(-1)}, and so
 * is a sum of such terms); {@code INV}, it does not move. {@code exp} turns a shift into a scale,
 * {@code log} a scale into a shift, sums keep a scale, quotients subtract degrees, max and min and
 * comparisons keep either (a scale is positive); a shift times or over a value that is the same
 * all through the worker ({@code (x - m) / T}) is a shift by that multiple (degrees are rational
 * multiples of products of such values, {@code Coef}); a sum of shifted terms, a product of two
 * moving values and every other function of a moving value are {@code TOP}, nothing proved. Constants 0 and
 * the infinities fit any scale (0 and infinity times a positive number), the infinities any shift.
 * Only a floating-point loop result of the worker's top level is a candidate (one value per worker,
 * as the proof assumes), and only when every store and reduction into a differentiated output is
 * {@code INV}, as is every loop bound, guard and index on the way.
 */
final class ShiftInvariance {
  private enum Kind { INV, SHIFT, SCALE, ZERO, INF, TOP }

  /**
   * A shift's or a scale's degree: a rational number times a product of powers of values that do
   * not move ({@code (x - m) / T} moves by {@code -c / T}: {@code -1} times {@code T^-1}). Values are
   * keyed by their node (the IR is hash-consed: one node per value). {@link #ANY} fits every degree.
   */
  private record Coef(long num, long den, java.util.SortedMap<Integer, Integer> powers) {
    static final Coef ANY = new Coef(0, 0, new java.util.TreeMap<>());
    static final Coef ZERO = new Coef(0, 1, new java.util.TreeMap<>());
    static final Coef ONE = new Coef(1, 1, new java.util.TreeMap<>());

    static Coef of(long num, long den, java.util.SortedMap<Integer, Integer> powers) {
      if (num == 0) {
        return ZERO;
      }
      if (Math.abs(num) > 1 << 20 || Math.abs(den) > 1 << 20) {
        return null; // (no operator's degrees grow so: give up rather than overflow)
      }
      long g = gcd(Math.abs(num), Math.abs(den));
      long sign = den < 0 ? -1 : 1;
      java.util.TreeMap<Integer, Integer> p = new java.util.TreeMap<>(powers);
      p.values().removeIf(v -> v == 0);
      return new Coef(sign * num / g, sign * den / g, p);
    }

    private static long gcd(long a, long b) {
      return b == 0 ? a : gcd(b, a % b);
    }

    boolean any() {
      return den == 0;
    }

    boolean zero() {
      return num == 0 && den != 0;
    }

    Coef negate() {
      return any() ? this : of(-num, den, powers);
    }

    /** The sum of two degrees of the same product of values; null for different products. */
    Coef plus(Coef o) {
      if (any() || o.any()) {
        return ANY;
      }
      if (zero()) {
        return o;
      }
      if (o.zero()) {
        return this;
      }
      return powers.equals(o.powers) ? of(num * o.den + o.num * den, den * o.den, powers) : null;
    }

    /** This degree times {@code e} (power 1) or divided by it (power -1). */
    Coef times(Expr e, int power) {
      if (any() || zero()) {
        return this;
      }
      java.util.TreeMap<Integer, Integer> p = new java.util.TreeMap<>(powers);
      p.merge(e.id(), power, Integer::sum);
      return of(num, den, p);
    }
  }

  /** A value's class; {@code n} the shift's or the scale's degree (never zero: that is {@code INV}). */
  private record Cls(Kind kind, Coef n) {
    static final Cls INV = new Cls(Kind.INV, Coef.ZERO);
    static final Cls TOP = new Cls(Kind.TOP, Coef.ZERO);
    static final Cls ZERO = new Cls(Kind.ZERO, Coef.ZERO);
    static final Cls INF = new Cls(Kind.INF, Coef.ZERO);

    static Cls shift(Coef n) {
      return n == null ? TOP : n.any() ? INF : n.zero() ? INV : new Cls(Kind.SHIFT, n);
    }

    static Cls scale(Coef n) {
      return n == null ? TOP : n.any() ? INF : n.zero() ? INV : new Cls(Kind.SCALE, n);
    }

    /** The shift this value moves by; null when it is no shift; {@link Coef#ANY} for any. */
    Coef asShift() {
      return switch (kind) {
        case INV, ZERO -> Coef.ZERO;
        case SHIFT -> n;
        case INF -> Coef.ANY;
        default -> null;
      };
    }

    /** The degree this value scales by; null when it is no scale; {@link Coef#ANY} for any. */
    Coef asScale() {
      return switch (kind) {
        case INV -> Coef.ZERO;
        case SCALE -> n;
        case ZERO, INF -> Coef.ANY;
        default -> null;
      };
    }

    boolean invariant() {
      return kind == Kind.INV || kind == Kind.ZERO || kind == Kind.INF;
    }
  }

  private final Expr.Var candidate;
  private final Map<Expr.Var, Stmt.Loop> loopOf;
  private final Map<Expr.Var, Stmt.Carried> carriedOf;
  private final Map<Expr.Var, Cls> phis = new HashMap<>();
  private final Set<Stmt.Loop> resolving = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
  private final Map<Expr.Var, Cls> results = new HashMap<>();
  private final Map<Expr, Cls> memo = new HashMap<>();

  private ShiftInvariance(Expr.Var candidate, Map<Expr.Var, Stmt.Loop> loopOf, Map<Expr.Var, Stmt.Carried> carriedOf) {
    this.candidate = candidate;
    this.loopOf = loopOf;
    this.carriedOf = carriedOf;
  }

  /**
   * The top-level loop results of {@code body} that the stores and reductions into {@code outputs}
   * do not depend on, as above.
   */
  static Set<Expr.Var> of(List<Stmt> body, Set<Param.Array> outputs) {
    Map<Expr.Var, Stmt.Loop> loopOf = new HashMap<>();
    Map<Expr.Var, Stmt.Carried> carriedOf = new HashMap<>();
    index(body, loopOf, carriedOf);
    List<Expr> written = new ArrayList<>();
    if (!outputs(body, outputs, written)) {
      return Set.of();
    }
    Set<Expr.Var> out = new LinkedHashSet<>();
    for (Stmt s : body) {
      if (s instanceof Stmt.Loop l) {
        for (Stmt.Carried c : l.carried()) {
          if (c.result().type().isFloating()
              && new ShiftInvariance(c.result(), loopOf, carriedOf).outputsInvariant(written)) {
            out.add(c.result());
          }
        }
      }
    }
    return out;
  }

  private static void index(List<Stmt> body, Map<Expr.Var, Stmt.Loop> loopOf, Map<Expr.Var, Stmt.Carried> carriedOf) {
    for (Stmt s : body) {
      if (s instanceof Stmt.Loop l) {
        loopOf.put(l.index(), l);
        for (Stmt.Carried c : l.carried()) {
          loopOf.put(c.phi(), l);
          loopOf.put(c.result(), l);
          carriedOf.put(c.phi(), c);
          carriedOf.put(c.result(), c);
        }
        index(l.body(), loopOf, carriedOf);
      }
    }
  }

  /**
   * Every value that decides what the outputs hold: each store's and reduction's value, index and
   * guard, and the bounds and guards of the loops around them. False where a user monoid reduces
   * into an output (its combining method is not followed).
   */
  private static boolean outputs(List<Stmt> body, Set<Param.Array> outputs, List<Expr> written) {
    for (Stmt s : body) {
      if (s instanceof Stmt.Store st && outputs.contains(st.array())) {
        written.addAll(List.of(st.value(), st.index(), st.guard()));
      } else if (s instanceof Stmt.Accumulate ac && outputs.contains(ac.array())) {
        written.addAll(List.of(ac.value(), ac.index(), ac.guard()));
      } else if (s instanceof Stmt.Combine cb && cb.arrays().stream().anyMatch(outputs::contains)) {
        return false;
      } else if (s instanceof Stmt.Loop l) {
        List<Expr> inner = new ArrayList<>();
        if (!outputs(l.body(), outputs, inner)) {
          return false;
        }
        if (!inner.isEmpty()) {
          written.addAll(List.of(l.lo(), l.hi(), l.guard()));
          written.addAll(inner);
        }
      }
    }
    return true;
  }

  private boolean outputsInvariant(List<Expr> written) {
    for (Expr e : written) {
      if (!cls(e).invariant()) {
        return false;
      }
    }
    return true;
  }

  private Cls cls(Expr e) {
    Cls known = memo.get(e);
    if (known != null) {
      return known;
    }
    Cls c = compute(e);
    memo.put(e, c);
    return c;
  }

  private Cls compute(Expr e) {
    if (e == candidate) {
      return Cls.shift(Coef.ONE);
    }
    if (e instanceof Expr.Const k) {
      if (k.type().isFloating() && k.floatingValue() == 0) {
        return Cls.ZERO;
      }
      return k.type().isFloating() && Double.isInfinite(k.floatingValue()) ? Cls.INF : Cls.INV;
    }
    if (e instanceof Expr.Var v) {
      return variable(v);
    }
    List<Cls> ops = new ArrayList<>();
    boolean allInvariant = true;
    for (Expr o : e.operands()) {
      Cls c = cls(o);
      if (c.kind() == Kind.TOP) {
        return Cls.TOP;
      }
      ops.add(c);
      allInvariant &= c.kind() == Kind.INV;
    }
    if (allInvariant) {
      return Cls.INV;
    }
    if (e instanceof Expr.Unary u && u.op() == UnaryOp.NEG) {
      Cls a = ops.get(0);
      return a.kind() == Kind.SHIFT ? Cls.shift(a.n().negate()) : a;
    }
    if (e instanceof Expr.Cast c && c.type().isFloating() && c.operand().type().isFloating()) {
      return ops.get(0);
    }
    if (e instanceof Expr.Binary b) {
      return binary(b, ops.get(0), ops.get(1));
    }
    if (e instanceof Expr.Select) {
      return ops.get(0).invariant() ? same(ops.get(1), ops.get(2)) : Cls.TOP;
    }
    if (e instanceof Expr.Call call) {
      return switch (call.fn()) {
        case EXP -> exp(ops.get(0));
        case LOG -> log(ops.get(0));
        case MAX, MIN -> same(ops.get(0), ops.get(1));
        default -> Cls.TOP;
      };
    }
    return Cls.TOP; // a read whose index or guard moves, a cast of a moving value to an integer
  }

  private Cls binary(Expr.Binary e, Cls a, Cls b) {
    BinaryOp op = e.op();
    switch (op) {
      case ADD:
      case SUB: {
        Coef sa = a.asShift();
        Coef sb = b.asShift();
        if (sa != null && sb != null) {
          Coef sum = sa.plus(op == BinaryOp.ADD ? sb : sb.negate());
          if (sum != null) {
            return Cls.shift(sum);
          }
        }
        if (a.kind() == Kind.ZERO) {
          return b; // 0 + x and 0 - x scale as x does
        }
        if (b.kind() == Kind.ZERO) {
          return a;
        }
        return sameScale(a, b);
      }
      case MUL:
      case DIV: {
        if (a.kind() == Kind.ZERO || (op == BinaryOp.MUL && b.kind() == Kind.ZERO)) {
          return Cls.ZERO;
        }
        // a shift times (or over) a value that does not move and is the same all through the
        // worker: a shift by that multiple, (x - m) / T (not (x[k] - m) * x[k], whose terms would
        // move by different multiples)
        if (a.kind() == Kind.SHIFT && b.kind() == Kind.INV && sameThroughout(e.right())) {
          return Cls.shift(a.n().times(e.right(), op == BinaryOp.MUL ? 1 : -1));
        }
        if (op == BinaryOp.MUL && a.kind() == Kind.INV && b.kind() == Kind.SHIFT && sameThroughout(e.left())) {
          return Cls.shift(b.n().times(e.left(), 1));
        }
        Coef da = a.asScale();
        Coef db = b.asScale();
        if (da == null || db == null) {
          return Cls.TOP;
        }
        return Cls.scale(da.plus(op == BinaryOp.MUL ? db : db.negate()));
      }
      case LT:
      case LE:
      case GT:
      case GE:
      case EQ:
      case NE:
        return same(a, b).kind() == Kind.TOP ? Cls.TOP : Cls.INV;
      default:
        return Cls.TOP;
    }
  }

  /** Whether {@code e} reads no loop's index or carried value: one value for the whole worker. */
  private static boolean sameThroughout(Expr e) {
    if (e instanceof Expr.Var v && (v.kind() == Expr.VarKind.LOOP_INDEX || v.kind() == Expr.VarKind.CARRIED
        || v.kind() == Expr.VarKind.LOOP_RESULT)) {
      return false;
    }
    for (Expr o : e.operands()) {
      if (!sameThroughout(o)) {
        return false;
      }
    }
    return true;
  }

  /** Two values that move alike (a max, a min, a comparison, a select's two sides): their class. */
  private static Cls same(Cls a, Cls b) {
    Coef sa = a.asShift();
    Coef sb = b.asShift();
    if (sa != null && sb != null && (sa.any() || sb.any() || sa.equals(sb))) {
      return sa.any() ? b : a;
    }
    return sameScale(a, b);
  }

  private static Cls sameScale(Cls a, Cls b) {
    Coef da = a.asScale();
    Coef db = b.asScale();
    if (da != null && db != null && (da.any() || db.any() || da.equals(db))) {
      return da.any() ? b : a;
    }
    return Cls.TOP;
  }

  private static Cls exp(Cls a) {
    Coef s = a.asShift();
    return s == null ? Cls.TOP : Cls.scale(s);
  }

  private static Cls log(Cls a) {
    Coef d = a.asScale();
    return d == null ? Cls.TOP : Cls.shift(d);
  }

  private Cls variable(Expr.Var v) {
    Stmt.Loop l = loopOf.get(v);
    if (l == null) {
      return Cls.INV; // a grid coordinate, a monoid operand
    }
    if (v == l.index()) {
      return loopInvariant(l) ? Cls.INV : Cls.TOP;
    }
    Stmt.Carried c = carriedOf.get(v);
    if (v == c.phi()) {
      Cls p = phis.get(v);
      if (p == null) {
        resolve(l);
        p = phis.get(v);
      }
      return p == null ? Cls.TOP : p;
    }
    Cls r = results.get(v);
    if (r == null) {
      resolve(l);
      r = results.get(v);
    }
    return r == null ? Cls.TOP : r;
  }

  private boolean loopInvariant(Stmt.Loop l) {
    return cls(l.lo()).kind() == Kind.INV && cls(l.hi()).kind() == Kind.INV && cls(l.guard()).kind() == Kind.INV;
  }

  /**
   * The classes of {@code l}'s carried values: each starts as its initial value's, then as what
   * one iteration makes of it, until an iteration keeps every class (a sum of terms scaled alike
   * keeps their scale; a sum of shifted terms moves by more each iteration and is {@code TOP}).
   */
  private void resolve(Stmt.Loop l) {
    if (resolving.contains(l)) {
      return; // asked from inside its own iteration: its phis are set
    }
    resolving.add(l);
    boolean bounds = loopInvariant(l);
    for (Stmt.Carried c : l.carried()) {
      phis.put(c.phi(), bounds ? cls(c.init()) : Cls.TOP);
    }
    boolean stable = false;
    for (int round = 0; round < 4 && bounds && !stable; round++) {
      forgetInside(l);
      Map<Expr.Var, Cls> next = new HashMap<>();
      for (Stmt.Carried c : l.carried()) {
        Cls before = phis.get(c.phi());
        Cls after = cls(c.next());
        next.put(c.phi(), after.kind() == Kind.TOP ? Cls.TOP : before.kind() == Kind.ZERO || before.kind() == Kind.INF
            ? after : same(before, after));
      }
      stable = next.equals(pick(phis, l));
      phis.putAll(next);
    }
    for (Stmt.Carried c : l.carried()) {
      Cls p = stable ? phis.get(c.phi()) : Cls.TOP;
      phis.put(c.phi(), p);
      results.put(c.result(), p);
    }
    forgetInside(l);
    resolving.remove(l);
  }

  private static Map<Expr.Var, Cls> pick(Map<Expr.Var, Cls> phis, Stmt.Loop l) {
    Map<Expr.Var, Cls> out = new HashMap<>();
    l.carried().forEach(c -> out.put(c.phi(), phis.get(c.phi())));
    return out;
  }

  /**
   * Forgets the classes worked out from {@code l}'s carried values, which change between rounds:
   * those of values that read them, and those of the loops nested in {@code l}.
   */
  private void forgetInside(Stmt.Loop l) {
    Set<Expr.Var> moving = new java.util.HashSet<>();
    l.carried().forEach(c -> moving.add(c.phi()));
    nested(l.body(), moving);
    Map<Expr, Boolean> seen = new HashMap<>();
    memo.keySet().removeIf(e -> dependsOn(e, moving, seen));
    for (Expr.Var v : moving) {
      if (loopOf.get(v) != l) {
        results.remove(v);
        phis.remove(v);
      }
    }
  }

  private static void nested(List<Stmt> body, Set<Expr.Var> into) {
    for (Stmt s : body) {
      if (s instanceof Stmt.Loop inner) {
        inner.carried().forEach(c -> {
          into.add(c.phi());
          into.add(c.result());
        });
        nested(inner.body(), into);
      }
    }
  }

  private static boolean dependsOn(Expr e, Set<Expr.Var> vars, Map<Expr, Boolean> seen) {
    Boolean known = seen.get(e);
    if (known != null) {
      return known;
    }
    boolean result = e instanceof Expr.Var v && vars.contains(v);
    if (!result) {
      for (Expr o : e.operands()) {
        if (dependsOn(o, vars, seen)) {
          result = true;
          break;
        }
      }
    }
    seen.put(e, result);
    return result;
  }
}
