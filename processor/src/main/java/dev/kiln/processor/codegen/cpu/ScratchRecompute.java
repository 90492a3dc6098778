package dev.kiln.processor.codegen.cpu;

import dev.kiln.processor.fusion.Recompute;
import dev.kiln.processor.ir.MathFn;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Stmt;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A SIMD kernel's scratch rows computed again where they are read instead of stored ({@link
 * Recompute}'s rewrite, which the device uses for every temporary it can): a fused backward pass
 * stores {@code adj[k] = dy[k] * exp(x[k] - m) / s} in one loop of a row and reads it back in the
 * last ({@code dx[k] = adj[k] + ...}). The row stays in cache, but each element still costs a store,
 * a load and a row of cache; computed again it costs a load of {@code dy} and two products.
 *
 * <p>Only where it adds no heavy call ({@code exp tanh sigmoid erf}): the kernel after {@link
 * CallStash}, which keeps such a call per worker when two loops compute it, may make no more of
 * them than before. The same operations on the same operands, so the same floats; the scalar kernel
 * keeps its rows (it has no stash, so a recomputed {@code exp} would be a second one).
 */
final class ScratchRecompute {
  private ScratchRecompute() {}

  /** The kernel with its recomputed rows, and a note for each ("adj$x$1 computed again where read"). */
  record Recomputed(OperatorIr.Grid op, List<String> notes) {}

  static Recomputed apply(OperatorIr.Grid op) {
    List<String> notes = new ArrayList<>();
    int heavy = heavyCalls(CallStash.applyAll(op).op());
    for (Param.Array a : List.copyOf(op.scratch())) {
      OperatorIr.Grid tried = Recompute.kernel(op, Set.of(a.name()));
      if (tried == op) {
        continue;
      }
      int after = heavyCalls(CallStash.applyAll(tried).op());
      if (after <= heavy) {
        op = tried;
        heavy = after;
        notes.add(a.name() + " computed again where read");
      }
    }
    return new Recomputed(op, notes);
  }

  /**
   * The calls that cost: exp, tanh, sigmoid and erf, and log, which has no vector form (a loop
   * that gained one would lose its SIMD form).
   */
  private static final Set<MathFn> COSTLY = costly();

  private static Set<MathFn> costly() {
    Set<MathFn> fns = java.util.EnumSet.copyOf(SimdFission.HEAVY);
    fns.add(MathFn.LOG);
    return fns;
  }

  /**
   * The distinct costly calls each loop of {@code op} makes, summed over its loops at any depth
   * (its top level's stores do not change when a row is computed again: only loops read rows).
   */
  static int heavyCalls(OperatorIr.Grid op) {
    return heavyCalls(op.body());
  }

  private static int heavyCalls(List<Stmt> body) {
    int n = 0;
    for (Stmt s : body) {
      if (s instanceof Stmt.Loop l) {
        n += SimdLoops.calls(l, COSTLY) + heavyCalls(l.body());
      }
    }
    return n;
  }
}
