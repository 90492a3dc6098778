package dev.kiln.processor.fusion;

import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.StmtWalk;
import dev.kiln.processor.ir.analysis.Affine;
import dev.kiln.processor.ir.analysis.AffineAnalysis;
import dev.kiln.processor.ir.analysis.LaneNest;
import dev.kiln.processor.ir.transform.Rewriter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The pass that recomputes a temporary where it is read instead of storing it: the device's form of
 * a fused kernel. A fused backward pass often stores a row's worth of values in one loop of a worker
 * and reads them back in a later loop ({@code adj[k] = dy[k] * g[k] * r} in one, {@code dx[k] =
 * adj[k] + ...} in the last). On the CPU such a temporary is a per-worker row that stays in cache
 * ({@link WorkerScratch}); on a GPU it is a composite-sized array, zero-filled, written to memory and
 * read back, three times the traffic of the kernel's real work. When the stored value can be computed
 * again, with the same operands, at every place it is read, the device kernel does that instead and
 * the temporary is gone (its store, its parameter and its allocation).
 *
 * <p>A temporary qualifies when only this kernel uses it, it has exactly one store, unconditional
 * and directly in a top-level loop {@code L1} of the worker, and every read is unconditional,
 * directly in a later top-level loop {@code L2} with {@code L1}'s bounds and step, at the store's
 * index with {@code L2}'s variable for {@code L1}'s (the index injective in it, so the element read
 * at iteration {@code k} is the one stored at iteration {@code k}). The stored value may use
 * {@code L1}'s variable, the grid's, results of loops before {@code L1} and arrays the kernel never
 * writes: all of them have the same values in {@code L2}. Recomputing evaluates the same operations
 * on the same operands, so the results are the same bits. A value of more than {@value #MAX_NODES}
 * nodes is stored as before. {@code L1} may also be a lane nest ({@link LaneNest}) with the store
 * in its inner loop: the nest visits every index of {@code [0, hi)} once, so {@code L2} runs from 0
 * to the inner loop's bound, and the value may not read the lane's index.
 *
 * <p>The CPU's SIMD kernels use the same rewrite for a worker's scratch rows where it costs no
 * extra exp or the like ({@code codegen.cpu.ScratchRecompute}).
 */
public final class Recompute {
  /** The largest stored value, in expression nodes, that is recomputed. */
  static final int MAX_NODES = 64;

  private Recompute() {}

  /**
   * {@code plan} with each kernel's device form set where it recomputes a temporary; kernels named in
   * {@code keep} (library leaves, which have no kernel body of their own on the device) are left as
   * they are.
   */
  public static FusionPlan forDevice(FusionPlan plan, Set<String> keep) {
    Set<String> temps = plan.temporariesOfOneKernel(FusionPlan.Kernel::ir);
    List<FusionPlan.Kernel> kernels = new ArrayList<>();
    for (FusionPlan.Kernel k : plan.kernels()) {
      // a kernel with statements after every worker reduces over all of them: it stores no value to recompute
      OperatorIr.Grid device = keep.contains(k.ir().name()) || k.ir().finishes() ? k.ir() : deviceForm(k.ir(), temps);
      kernels.add(device == k.ir() ? k : k.withDevice(device));
    }
    return new FusionPlan(plan.composite(), kernels, plan.allocated(), plan.edges(), plan.splits());
  }

  /**
   * {@code op}'s device form: its qualifying temporaries recomputed, and where a loop's "seen so far"
   * flag is what keeps one stored, that flag computed from a first-match search first ({@link
   * FirstMatch}) when that lets more temporaries go; then folding loops that need nothing from each
   * other joined ({@link SiblingLoops}).
   */
  static OperatorIr.Grid deviceForm(OperatorIr.Grid op, Set<String> temps) {
    OperatorIr.Grid plain = kernel(op, temps);
    OperatorIr.Grid split = FirstMatch.split(op);
    if (split == op) {
      return SiblingLoops.join(plain);
    }
    OperatorIr.Grid searched = kernel(split, temps);
    return SiblingLoops.join(searched.arrays().size() < plain.arrays().size() ? searched : plain);
  }

  /** {@code op} with every qualifying temporary among {@code temps} recomputed; {@code op} itself when none. */
  public static OperatorIr.Grid kernel(OperatorIr.Grid op, Set<String> temps) {
    OperatorIr.Grid current = op;
    Set<String> tried = new HashSet<>();
    while (true) {
      Candidate c = null;
      for (Param.Array a : current.arrays()) {
        if (temps.contains(a.name()) && !tried.contains(a.name())) {
          tried.add(a.name());
          c = candidate(current, a);
          if (c != null) {
            break;
          }
        }
      }
      if (c == null) {
        return current;
      }
      current = recompute(current, c);
      tried.clear(); // a recomputed value may have been what kept another temporary
      tried.add(c.array().name());
    }
  }

  /**
   * A temporary to recompute: its one store, directly in {@code loop} (a top-level loop, or the
   * inner loop of a top-level lane nest), and the later top-level loops that read it, by scope.
   */
  private record Candidate(Param.Array array, Stmt.Loop loop, Stmt.Store store, Map<Integer, Stmt.Loop> readers) {}

  private static Candidate candidate(OperatorIr.Grid op, Param.Array t) {
    return candidate(op, t, true);
  }

  /**
   * The temporaries of {@code plan}'s device kernels that need no zero-filling: each used by one
   * kernel, whose workers read only elements they stored before (the shape of a recomputed
   * temporary, whatever its value).
   */
  public static Set<String> storedBeforeRead(FusionPlan plan) {
    Set<String> temps = plan.temporariesOfOneKernel(FusionPlan.Kernel::onDevice);
    Set<String> out = new HashSet<>();
    for (FusionPlan.Kernel k : plan.kernels()) {
      for (Param.Array a : k.onDevice().arrays()) {
        if (temps.contains(a.name()) && candidate(k.onDevice(), a, false) != null) {
          out.add(a.name());
        }
      }
    }
    return out;
  }

  /** As above; {@code valueToo}: whether the stored value must be recomputable as well. */
  private static Candidate candidate(OperatorIr.Grid op, Param.Array t, boolean valueToo) {
    List<Stmt> top = op.body();
    List<Stmt.Store> stores = new ArrayList<>();
    if (!storesOf(top, t, stores) || stores.size() != 1) {
      return null;
    }
    Set<String> written = StmtWalk.writtenArrays(top);
    Stmt.Store store = stores.get(0);
    int at = -1;
    Stmt.Loop storing = null; // the loop the store is directly in: l1, or its lane nest's inner loop
    for (int i = 0; i < top.size(); i++) {
      if (!(top.get(i) instanceof Stmt.Loop l)) {
        continue;
      }
      LaneNest nest = LaneNest.match(l);
      if (l.body().contains(store)) {
        at = i;
        storing = l;
      } else if (nest != null && nest.inner().body().contains(store)) {
        at = i; // a lane nest visits every index of [0, hi) once, lane by lane
        storing = nest.inner();
      }
    }
    if (at < 0) {
      return null;
    }
    Stmt.Loop l1 = (Stmt.Loop) top.get(at);
    if (!isTrue(l1.guard()) || !isTrue(store.guard()) || !injective(store.index(), storing.index())) {
      return null;
    }
    Set<Expr.Var> before = new HashSet<>();
    for (int i = 0; i < at; i++) {
      if (top.get(i) instanceof Stmt.Loop l) {
        l.carried().forEach(c -> before.add(c.result()));
      }
    }
    // (in a lane nest, a value that reads the lane's index is not recomputable: only the inner index is renamed)
    if (valueToo && !recomputable(store.value(), storing.index(), before, written)) {
      return null;
    }
    // every read: directly in a later top-level loop like l1, unconditional, at the store's index
    Rewriter probe = new Rewriter(new ExprFactory(), (orig, rebuilt) -> rebuilt);
    Map<Integer, Stmt.Loop> readers = new HashMap<>();
    for (int i = 0; i < top.size(); i++) {
      List<Expr.Load> reads = StmtWalk.loadsOf(StmtWalk.exprs(top.get(i)), t.name());
      if (reads.isEmpty()) {
        continue;
      }
      if (i <= at || !(top.get(i) instanceof Stmt.Loop l2) || !isTrue(l2.guard())
          || !(storing == l1 ? sameRange(l1, l2, probe) : wholeNest(storing, l2, probe))) {
        return null;
      }
      Expr expected = probe.factory().substitute(probe.rewrite(store.index()), Map.of(storing.index(), l2.index()), l2.id());
      for (Expr.Load read : reads) {
        if (read.scope() != l2.id() || !isTrue(read.guard()) || probe.rewrite(read.index()) != expected) {
          return null;
        }
      }
      readers.put(l2.id(), l2);
    }
    return new Candidate(t, storing, store, readers);
  }

  /** Whether {@code l2} runs over the indices a lane nest whose inner loop is {@code inner} visits: {@code [0, hi)}, step 1. */
  private static boolean wholeNest(Stmt.Loop inner, Stmt.Loop l2, Rewriter probe) {
    return l2.step() == 1 && l2.lo() instanceof Expr.Const lo && lo.type() == ScalarType.INT
        && lo.integralValue() == 0 && probe.rewrite(l2.hi()) == probe.rewrite(inner.hi());
  }

  /** {@code op} with {@code c}'s reads replaced by its value and its store and parameter removed. */
  private static OperatorIr.Grid recompute(OperatorIr.Grid op, Candidate c) {
    ExprFactory f = new ExprFactory();
    Rewriter[] self = new Rewriter[1];
    self[0] = new Rewriter(f, (orig, rebuilt) -> {
      if (orig instanceof Expr.Load l && l.array().name().equals(c.array().name())) {
        Stmt.Loop reader = c.readers().get(l.scope());
        Expr value = self[0].rewrite(c.store().value());
        return f.substitute(value, Map.of(c.loop().index(), reader.index()), reader.id());
      }
      return rebuilt;
    });
    OperatorIr.Grid rewritten = self[0].rewrite(op, (s, index) -> index);
    List<Param> params = new ArrayList<>(rewritten.params());
    params.removeIf(p -> p.name().equals(c.array().name()));
    return rewritten.withParams(params).withBody(withoutStores(rewritten.body(), c.array().name()));
  }

  private static List<Stmt> withoutStores(List<Stmt> body, String array) {
    List<Stmt> out = new ArrayList<>();
    for (Stmt s : body) {
      if (s instanceof Stmt.Store st && st.array().name().equals(array)) {
        continue;
      }
      if (s instanceof Stmt.Loop l) {
        List<Stmt> inner = withoutStores(l.body(), array);
        if (inner.isEmpty() && l.carried().isEmpty()) {
          continue; // the loop did nothing else
        }
        out.add(new Stmt.Loop(l.id(), l.index(), l.lo(), l.hi(), l.step(), l.guard(), l.carried(), inner, l.origin()));
      } else {
        out.add(s);
      }
    }
    return out;
  }

  /** Collects the stores of {@code t}, loops included; false when {@code t} is accumulated into. */
  private static boolean storesOf(List<Stmt> body, Param.Array t, List<Stmt.Store> stores) {
    for (Stmt s : body) {
      if (s instanceof Stmt.Store st && st.array().name().equals(t.name())) {
        stores.add(st);
      } else if (StmtWalk.reduces(s) && StmtWalk.arraysWritten(s).stream().anyMatch(a -> a.name().equals(t.name()))) {
        return false;
      } else if (s instanceof Stmt.Loop l && !storesOf(l.body(), t, stores)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether {@code value} has the same value at every later place {@code index} is renamed: its
   * variables are {@code index}, grid variables or results in {@code before}, it reads no array in
   * {@code written}, and it is small.
   */
  static boolean recomputable(Expr value, Expr.Var index, Set<Expr.Var> before, Set<String> written) {
    Set<Expr> seen = new HashSet<>();
    ArrayDeque<Expr> work = new ArrayDeque<>();
    work.push(value);
    while (!work.isEmpty()) {
      Expr e = work.pop();
      if (!seen.add(e)) {
        continue;
      }
      if (seen.size() > MAX_NODES) {
        return false;
      }
      if (e instanceof Expr.Var v && v != index && v.kind() != Expr.VarKind.GRID && !before.contains(v)) {
        return false;
      }
      if (e instanceof Expr.Load l && written.contains(l.array().name())) {
        return false;
      }
      e.operands().forEach(work::push);
    }
    return true;
  }

  /** Whether {@code index} takes a different value at every value of {@code var}: affine, a nonzero constant coefficient. */
  private static boolean injective(Expr index, Expr.Var var) {
    Affine a = AffineAnalysis.affine(index);
    if (a == null) {
      return false;
    }
    Poly c = a.coefficient(var.name());
    return c.isConstant() && c.constantTerm() != 0;
  }

  /** Whether the loops have the same bounds and step ({@code probe} rebuilds both in one factory, where equal means identical). */
  static boolean sameRange(Stmt.Loop a, Stmt.Loop b, Rewriter probe) {
    return a.step() == b.step() && probe.rewrite(a.lo()) == probe.rewrite(b.lo())
        && probe.rewrite(a.hi()) == probe.rewrite(b.hi());
  }

  /** Whether {@code e} is the constant true (an always-true guard). */
  static boolean isTrue(Expr e) {
    return e instanceof Expr.Const c && c.isTrue();
  }
}
