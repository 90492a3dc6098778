package dev.kiln.processor.ir.analysis;

import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Stmt;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * A sum written as {@code L} strided partial sums, the source's own order of adding a row that a
 * vector can follow ("lane sums", LANGUAGE.md):
 *
 * <pre>
 * float s = 0f;
 * for (int j = 0; j &lt; 16; j++) {      // lanes: the outer loop, from 0 to a constant L
 *   float p = 0f;
 *   for (int k = j; k &lt; N; k += 16) {  // the lane's terms: from j, step L, to a bound free of j
 *     p += x[b * N + k];
 *   }
 *   s += p;                           // each lane's partial added to the total, lane by lane
 * }
 * </pre>
 *
 * <p>Lane {@code j} folds the terms at {@code k = j, j + L, j + 2L, ...} in that order; the total
 * then takes the lanes' partials in lane order. A vector of {@code L} lanes at block start
 * {@code kb} holds, in lane {@code j}, the term at {@code kb + j}: consecutive {@code k}, so the
 * block is a unit-stride vector, and adding block after block keeps every lane's order. The
 * iterations together visit every {@code k} in {@code [0, hi)} once: for a derivative the nest is
 * one loop over that range (its terms' adjoints do not depend on the order of a sum).
 *
 * <p>Matched: the outer loop from the int constant 0 to an int constant {@code L >= 2}, step 1,
 * unguarded, its body exactly the inner loop; the inner loop from the outer index, step {@code L},
 * unguarded, its bound, body, carried values' initial values and updates free of the outer index
 * (its terms depend on the lane through the inner index alone) and from the values the outer loop
 * carries; every value the outer loop carries
 * a float updated as {@code phi op r} or {@code r op phi}, {@code op} one of {@code + - * /}, with
 * {@code r} the result of a different inner carried value; every inner carried value a float.
 *
 * @param outer the lanes' loop
 * @param inner the terms' loop
 * @param lanes {@code L}
 * @param partials for each value {@code outer} carries, the inner carried value whose result it takes
 */
public record LaneNest(Stmt.Loop outer, Stmt.Loop inner, int lanes, Map<Stmt.Carried, Stmt.Carried> partials) {
  /** The most lanes a nest may have: {@code L} vectors' accumulators and a row of partials at most. */
  public static final int MAX_LANES = 1024;

  /** {@code l} as a lane nest, or null where it is not one. */
  public static LaneNest match(Stmt.Loop l) {
    if (!(l.lo() instanceof Expr.Const lo) || lo.type() != ScalarType.INT || lo.integralValue() != 0
        || !(l.hi() instanceof Expr.Const hi) || hi.type() != ScalarType.INT || hi.integralValue() < 2
        || hi.integralValue() > MAX_LANES || l.step() != 1 || !isTrue(l.guard()) || l.body().size() != 1
        || !(l.body().get(0) instanceof Stmt.Loop in)) {
      return null;
    }
    int lanes = (int) hi.integralValue();
    Expr.Var j = l.index();
    if (in.lo() != j || in.step() != lanes || !isTrue(in.guard()) || in.hi().dependsOn(j)
        || in.index().type() != ScalarType.INT) {
      return null;
    }
    for (Stmt.Carried c : in.carried()) {
      if (c.phi().type() != ScalarType.FLOAT || c.init().dependsOn(j) || c.next().dependsOn(j)) {
        return null;
      }
    }
    if (in.body().stream().anyMatch(s -> dependsOn(s, j))) {
      return null;
    }
    for (Stmt.Carried c : l.carried()) {
      // the total so far is another value in each lane: the lanes' terms may not read it
      if (dependsOn(in, c.phi())) {
        return null;
      }
    }
    Map<Stmt.Carried, Stmt.Carried> partials = new IdentityHashMap<>();
    List<Stmt.Carried> taken = new ArrayList<>();
    for (Stmt.Carried c : l.carried()) {
      if (c.phi().type() != ScalarType.FLOAT || !(c.next() instanceof Expr.Binary b) || !ARITHMETIC.contains(b.op())) {
        return null;
      }
      Expr r = b.left() == c.phi() ? b.right() : b.right() == c.phi() ? b.left() : null;
      Stmt.Carried from = null;
      for (Stmt.Carried ic : in.carried()) {
        if (ic.result() == r) {
          from = ic;
        }
      }
      if (from == null || taken.contains(from)) {
        return null;
      }
      taken.add(from);
      partials.put(c, from);
    }
    return new LaneNest(l, in, lanes, partials);
  }

  /** Whether the statement {@code s} (and what it holds) reads {@code v}. */
  private static boolean dependsOn(Stmt s, Expr.Var v) {
    if (s.guard().dependsOn(v)) {
      return true;
    }
    if (s instanceof Stmt.Store st) {
      return st.index().dependsOn(v) || st.value().dependsOn(v);
    }
    if (s instanceof Stmt.Accumulate a) {
      return a.index().dependsOn(v) || a.value().dependsOn(v);
    }
    if (s instanceof Stmt.Combine c) {
      return c.index().dependsOn(v) || c.values().stream().anyMatch(e -> e.dependsOn(v));
    }
    Stmt.Loop l = (Stmt.Loop) s;
    return l.lo().dependsOn(v) || l.hi().dependsOn(v)
        || l.carried().stream().anyMatch(c -> c.init().dependsOn(v) || c.next().dependsOn(v))
        || l.body().stream().anyMatch(b -> dependsOn(b, v));
  }

  private static boolean isTrue(Expr e) {
    return e instanceof Expr.Const c && c.isTrue();
  }

  private static final java.util.Set<BinaryOp> ARITHMETIC =
      java.util.EnumSet.of(BinaryOp.ADD, BinaryOp.SUB, BinaryOp.MUL, BinaryOp.DIV);

  /**
   * The nest as one loop over every term, {@code for (k = 0; k < hi; k++)} with the inner loop's
   * carried values and body: the iterations the nest runs, in another order. For analyses that
   * do not depend on the order (a sum's derivative); never for computing the sum itself.
   */
  public Stmt.Loop union() {
    return new Stmt.Loop(inner.id(), inner.index(), outer.lo(), inner.hi(), 1, inner.guard(), inner.carried(),
        inner.body(), inner.origin());
  }
}
