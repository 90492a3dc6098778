package dev.kiln.processor.codegen.cpu;

import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.StmtWalk;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The values a vectorised loop's body computes that are the same in every iteration and that the
 * source computes outside the loop: a row's saved sum read from an array and its reciprocal, a
 * mean, an {@code rsqrt} of a variance. {@link SimdLoops} computes them once before the loop.
 *
 * <p>C2 does not hoist them itself where the loop stores into a float array: a read of {@code
 * sSaved[b]} may alias the store, so the read, the division or the call after it, and the
 * broadcast ran in every vector iteration (softmax's derived backward kernel, read in its
 * disassembly).
 *
 * <p>A value qualifies when it reads neither the loop's index nor a value the loop carries, reads
 * no array the loop writes, and every array read or integer division in it was written outside the
 * loop (the scalar kernel computes those where they were written too, so nothing runs that the
 * source would not), or, for an array read, provably stays inside its array ({@link SafeLoads}: a
 * derived gradient's loop reads a row's saved statistics, {@code vSaved[b]}, in every iteration,
 * and the division, the {@code rsqrt} and the products after it with it; computed once before the
 * loop, layer norm's backward row kernel ran 2.3 times as fast: docs/BENCHMARKS.md). Only the
 * largest such values are listed, outermost first; constants, variables and parameters are left
 * where they are.
 */
final class LoopInvariants {
  private final Stmt.Loop loop;
  private final Set<Expr.Var> moving = new java.util.HashSet<>();
  private final Set<String> written;
  private final Map<Expr, Boolean> memo = new HashMap<>();
  private final Set<Expr> found = new LinkedHashSet<>();
  private final Predicate<Expr.Load> safe;

  private LoopInvariants(Stmt.Loop loop, Predicate<Expr.Load> safe) {
    this.loop = loop;
    this.safe = safe;
    this.written = StmtWalk.writtenArrays(loop.body());
    moving.add(loop.index());
    for (Stmt.Carried c : loop.carried()) {
      moving.add(c.phi());
    }
  }

  /**
   * The largest loop-invariant values in {@code l}'s stores and carried values, in the order first
   * met; {@code safe}: the loads that cannot throw wherever they run ({@link SafeLoads}).
   */
  static List<Expr> of(Stmt.Loop l, Predicate<Expr.Load> safe) {
    LoopInvariants walk = new LoopInvariants(l, safe);
    for (Stmt s : l.body()) {
      if (s instanceof Stmt.Store store) {
        walk.visit(store.guard());
        walk.visit(store.index());
        walk.visit(store.value());
      }
    }
    for (Stmt.Carried c : l.carried()) {
      walk.visit(c.next());
    }
    return new ArrayList<>(walk.found);
  }

  private void visit(Expr e) {
    if (trivial(e)) {
      return;
    }
    if (invariant(e)) {
      found.add(e);
      return;
    }
    for (Expr o : e.operands()) {
      visit(o);
    }
  }

  private static boolean trivial(Expr e) {
    return e instanceof Expr.Const || e instanceof Expr.Var || e instanceof Expr.ScalarRef;
  }

  private boolean invariant(Expr e) {
    Boolean known = memo.get(e);
    if (known != null) {
      return known;
    }
    boolean result;
    if (e instanceof Expr.Var v) {
      result = !moving.contains(v);
    } else if (e instanceof Expr.Load load
        && (load.scope() == loop.id() && !safe.test(load) || written.contains(load.array().name()))) {
      result = false;
    } else if (e instanceof Expr.Binary b && b.scope() == loop.id()) {
      result = false; // an integer division written in the loop: it may trap, so it stays there
    } else {
      result = true;
      for (Expr o : e.operands()) {
        if (!invariant(o)) {
          result = false;
          break;
        }
      }
    }
    memo.put(e, result);
    return result;
  }
}
