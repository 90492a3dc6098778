package dev.kiln.processor.codegen.cpu;

import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.analysis.Affine;
import dev.kiln.processor.ir.analysis.AffineAnalysis;
import dev.kiln.processor.ir.analysis.ExprEquivalence;
import dev.kiln.processor.ir.analysis.LaneNest;
import dev.kiln.processor.ir.transform.Rewriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Computes an exp/tanh/sigmoid/erf call once where a row kernel's source computes it twice: in a
 * loop that folds it (softmax's {@code s += exp(x[k] - m)}) and again in a later loop over the same
 * range that stores a value using it ({@code y[k] = exp(x[k] - m) / s}). The first loop also
 * stores the call's value into the element the later loop writes, and the later loop reads it
 * back instead of calling again. The stored float is the call's, so the result is the source's to
 * the bit; the later loop overwrites the element with its own value, as the source does.
 *
 * <p>The first loop may be a lane nest's ({@link LaneNest}): its inner loop then stores, and the
 * later loop runs from 0 to the inner loop's bound. A lane nest visits each index once, so each
 * element is stored once before the later loop reads it.
 *
 * <p>When: both loops innermost with true guards and the same bounds; the later loop stores into
 * {@code y} at an index with the loop variable's coefficient 1 (a vector store) and without a
 * guard; nothing else in the worker stores into or reads {@code y}. Other workers do not touch
 * the elements a worker writes (the {@code @Parallel} contract). The CPU's SIMD kernels only: on
 * a GPU the extra store costs more than the call.
 *
 * <p>When no output can hold it, a call that an earlier loop from 0 folds and later loops over the
 * same range compute again (softmax's gradient computes {@code exp(x[k] - m)} in three loops) is
 * kept in a new {@code SCRATCH} array of the loop's length, one per worker ({@code exp$kept}):
 * stored by the first loop, read back by the others. A row's worth of floats stays in cache. A
 * later loop may be a lane nest over the same range (its inner loop visits each index once, lane by
 * lane): the gradient of a softmax whose sum is a lane sum reads the kept value there too.
 */
final class CallStash {
  private CallStash() {}

  /** {@code op} after every stash this class finds, and a note for each ("exp kept in y"). */
  record Stashed(OperatorIr.Grid op, List<String> notes) {}

  static Stashed applyAll(OperatorIr.Grid op) {
    List<String> notes = new ArrayList<>();
    String[] note = new String[1];
    for (OperatorIr.Grid next = apply(op, note); next != op; next = apply(op, note)) {
      op = next;
      notes.add(note[0]);
    }
    return new Stashed(op, notes);
  }

  /** {@code op} with the first call that can be stashed (described in {@code note[0]}), or {@code op} itself. */
  private static OperatorIr.Grid apply(OperatorIr.Grid op, String[] note) {
    if (op.grid().isEmpty()) {
      return op;
    }
    OperatorIr.Grid inOutput = intoOutput(op, note);
    return inOutput != op ? inOutput : intoScratch(op, note);
  }

  /** The first call that a later loop's output store can hold, stashed there. */
  private static OperatorIr.Grid intoOutput(OperatorIr.Grid op, String[] note) {
    List<Stmt> body = op.body();
    for (int i = 0; i < body.size(); i++) {
      if (!(body.get(i) instanceof Stmt.Loop loop)) {
        continue;
      }
      // a lane nest's terms: its inner loop, over [0, hi) as a whole
      LaneNest nest = LaneNest.match(loop);
      Stmt.Loop first = nest != null ? nest.inner() : loop;
      Expr lo = nest != null ? nest.outer().lo() : loop.lo();
      if (!SimdPlan.isTrue(first.guard()) || first.body().stream().anyMatch(s -> !(s instanceof Stmt.Store))
          || (nest == null && first.step() != 1)) {
        continue;
      }
      List<Expr.Call> calls = new ArrayList<>();
      for (Stmt.Carried c : first.carried()) {
        heavyCalls(c.next(), first.index(), calls, new HashSet<>());
      }
      for (int j = i + 1; j < body.size(); j++) {
        if (!(body.get(j) instanceof Stmt.Loop later) || !plain(later) || later.lo() != lo
            || later.hi() != first.hi()) {
          continue;
        }
        for (Stmt s : later.body()) {
          Stmt.Store store = (Stmt.Store) s;
          if (!SimdPlan.isTrue(store.guard()) || !onlyStore(body, store) || !stepsByOne(store.index(), later.index())) {
            continue;
          }
          for (Expr.Call call : calls) {
            Expr twin = find(store.value(), call, first.index(), later.index(), new HashSet<>());
            if (twin != null) {
              OperatorIr.Grid stashed = stash(op, i, j, store, call, twin);
              if (stashed != null) {
                note[0] = call.fn().javaName() + " kept in " + store.array().name() + " for a later loop";
                return stashed;
              }
            }
          }
        }
      }
    }
    return op;
  }

  /**
   * The first call that an earlier loop folds and later loops over the same range compute again,
   * kept in a new scratch array of the loop's length (one per worker, so it stays in cache): the
   * earlier loop stores it, the later ones read it back. Loops from 0 only (the array's index is
   * the loop variable).
   */
  private static OperatorIr.Grid intoScratch(OperatorIr.Grid op, String[] note) {
    List<Stmt> body = op.body();
    for (int i = 0; i < body.size(); i++) {
      if (!(body.get(i) instanceof Stmt.Loop first) || !plain(first) || !zero(first.lo())) {
        continue;
      }
      Affine hi = AffineAnalysis.affine(first.hi());
      if (hi == null || !hi.isConstant()) {
        continue;
      }
      List<Expr.Call> calls = new ArrayList<>();
      for (Stmt.Carried c : first.carried()) {
        heavyCalls(c.next(), first.index(), calls, new HashSet<>());
      }
      for (Expr.Call call : calls) {
        Map<Integer, Twin> twins = new java.util.LinkedHashMap<>();
        for (int j = i + 1; j < body.size(); j++) {
          Stmt.Loop later = terms(body.get(j), first);
          if (later != null) {
            Expr twin = findIn(later, call, first.index());
            if (twin != null) {
              twins.put(j, new Twin(later, twin));
            }
          }
        }
        if (twins.isEmpty()) {
          continue;
        }
        String name = call.fn().javaName() + "$kept";
        for (int n = 2; taken(op, name); n++) {
          name = call.fn().javaName() + "$kept" + n;
        }
        Param.Array kept = new Param.Array(name, op.params().size(), call.type(),
            new dev.kiln.processor.ir.Shape(hi.constantPart().toString(), List.of(hi.constantPart())),
            dev.kiln.processor.ir.ArrayRole.SCRATCH);
        OperatorIr.Grid stashed = keep(op, i, call, twins, kept);
        if (stashed != null) {
          note[0] = call.fn().javaName() + " kept per worker for " + (twins.size() == 1 ? "a later loop" : twins.size() + " later loops");
          return stashed;
        }
      }
    }
    return op;
  }

  /**
   * The loop of {@code s} whose iterations visit each index of {@code first}'s range once: a plain
   * loop over the same range, or a lane nest's inner loop over it (the lanes from 0, each lane's
   * indices {@code j, j + L, ...} up to the same bound: softmax's gradient sums its terms so);
   * null for any other statement.
   */
  private static Stmt.Loop terms(Stmt s, Stmt.Loop first) {
    if (!(s instanceof Stmt.Loop later)) {
      return null;
    }
    if (plain(later) && later.lo() == first.lo() && later.hi() == first.hi()) {
      return later;
    }
    LaneNest nest = LaneNest.match(later);
    if (nest != null && nest.outer().lo() == first.lo() && nest.inner().hi() == first.hi()
        && SimdPlan.isTrue(nest.inner().guard())
        && nest.inner().body().stream().allMatch(st -> st instanceof Stmt.Store)) {
      return nest.inner();
    }
    return null;
  }

  private static boolean zero(Expr e) {
    return e instanceof Expr.Const c && !c.type().isFloating() && c.integralValue() == 0;
  }

  private static boolean taken(OperatorIr.Grid op, String name) {
    return op.params().stream().anyMatch(p -> p.name().equals(name));
  }

  /** The node in {@code later}'s stores or carried values equal to {@code call} with {@code from} read as its index. */
  private static Expr findIn(Stmt.Loop later, Expr.Call call, Expr.Var from) {
    Set<Expr> seen = new HashSet<>();
    for (Stmt s : later.body()) {
      Stmt.Store st = (Stmt.Store) s;
      Expr found = find(st.value(), call, from, later.index(), seen);
      if (found != null) {
        return found;
      }
    }
    for (Stmt.Carried c : later.carried()) {
      Expr found = find(c.next(), call, from, later.index(), seen);
      if (found != null) {
        return found;
      }
    }
    return null;
  }

  /**
   * A later statement's computation of the call: {@code loop} computes {@code expr}, the statement's
   * own loop or its lane nest's inner loop (as {@link #terms} chose it).
   */
  private record Twin(Stmt.Loop loop, Expr expr) {}

  /** Loop {@code i} storing {@code call} into {@code kept} at its index; each loop of {@code twins} reading it there. */
  private static OperatorIr.Grid keep(OperatorIr.Grid op, int i, Expr.Call call, Map<Integer, Twin> twins, Param.Array kept) {
    Stmt.Loop first = (Stmt.Loop) op.body().get(i);
    ExprFactory f = new ExprFactory();
    List<Stmt> firstBody = new ArrayList<>(first.body());
    firstBody.add(new Stmt.Store(kept, first.index(), call, f.trueValue(), null));
    Stmt.Loop newFirst = new Stmt.Loop(first.id(), first.index(), first.lo(), first.hi(), first.step(), first.guard(),
        first.carried(), firstBody, first.origin());
    if (SimdPlan.loopRefusal(newFirst) != null) {
      return null;
    }
    List<Stmt> body = new ArrayList<>(op.body());
    body.set(i, newFirst);
    for (Map.Entry<Integer, Twin> t : twins.entrySet()) {
      Stmt.Loop whole = (Stmt.Loop) op.body().get(t.getKey());
      Stmt.Loop later = t.getValue().loop();
      Expr twin = t.getValue().expr();
      Rewriter inLater = new Rewriter(f, (orig, rebuilt) -> orig == twin
          ? f.load(kept, later.index(), f.trueValue(), later.id())
          : rebuilt);
      List<Stmt> laterBody = new ArrayList<>();
      for (Stmt s : later.body()) {
        Stmt.Store st = (Stmt.Store) s;
        laterBody.add(new Stmt.Store(st.array(), inLater.rewrite(st.index()), inLater.rewrite(st.value()),
            inLater.rewrite(st.guard()), st.origin()));
      }
      List<Stmt.Carried> carried = new ArrayList<>();
      for (Stmt.Carried c : later.carried()) {
        carried.add(c.with(c.phi(), c.init(), inLater.rewrite(c.next()), c.result()));
      }
      Stmt.Loop newLater = new Stmt.Loop(later.id(), later.index(), later.lo(), later.hi(), later.step(), later.guard(),
          carried, laterBody, later.origin());
      if (later != whole) {
        // the nest's outer loop around the new inner loop, which must still be a lane nest
        Stmt.Loop newWhole = new Stmt.Loop(whole.id(), whole.index(), whole.lo(), whole.hi(), whole.step(),
            whole.guard(), whole.carried(), List.of(newLater), whole.origin());
        if (LaneNest.match(newWhole) == null) {
          return null;
        }
        body.set(t.getKey(), newWhole);
        continue;
      }
      if (SimdPlan.loopRefusal(newLater) != null) {
        return null;
      }
      body.set(t.getKey(), newLater);
    }
    List<dev.kiln.processor.ir.Param> params = new ArrayList<>(op.params());
    params.add(kept);
    return op.withParams(params).withBody(body);
  }

  private static boolean plain(Stmt.Loop l) {
    return SimdPlan.isTrue(l.guard()) && l.step() == 1 && l.body().stream().allMatch(s -> s instanceof Stmt.Store);
  }

  private static void heavyCalls(Expr e, Expr.Var index, List<Expr.Call> out, Set<Expr> seen) {
    if (!seen.add(e)) {
      return;
    }
    if (e instanceof Expr.Call c && SimdFission.HEAVY.contains(c.fn()) && c.dependsOn(index)) {
      out.add(c);
      return;
    }
    e.operands().forEach(o -> heavyCalls(o, index, out, seen));
  }

  /** Whether {@code store} is the only store into its array in the worker and no expression reads that array. */
  private static boolean onlyStore(List<Stmt> body, Stmt.Store store) {
    int[] stores = {0};
    boolean[] read = {false};
    walk(body, store.array(), stores, read);
    return stores[0] == 1 && !read[0];
  }

  /** Whether any statement of {@code body} (loops' bounds, guards and carried values included) reads {@code a}. */
  static boolean readsIn(List<Stmt> body, Param.Array a) {
    boolean[] read = {false};
    walk(body, a, new int[1], read);
    return read[0];
  }

  /** Whether any statement of {@code body} reads, stores or accumulates into {@code a}. */
  static boolean touches(List<Stmt> body, Param.Array a) {
    int[] stores = {0};
    boolean[] read = {false};
    walk(body, a, stores, read);
    return stores[0] > 0 || read[0];
  }

  private static void walk(List<Stmt> body, Param.Array a, int[] stores, boolean[] read) {
    for (Stmt s : body) {
      List<Expr> exprs = new ArrayList<>();
      if (s instanceof Stmt.Store st) {
        stores[0] += st.array().equals(a) ? 1 : 0;
        exprs.addAll(List.of(st.index(), st.value(), st.guard()));
      } else if (s instanceof Stmt.Accumulate ac) {
        stores[0] += ac.array().equals(a) ? 1 : 0;
        exprs.addAll(List.of(ac.index(), ac.value(), ac.guard()));
      } else if (s instanceof Stmt.Combine c) {
        stores[0] += c.arrays().contains(a) ? 1 : 0;
        exprs.addAll(List.of(c.index(), c.guard()));
        exprs.addAll(c.values());
      } else {
        Stmt.Loop l = (Stmt.Loop) s;
        exprs.addAll(List.of(l.lo(), l.hi(), l.guard()));
        l.carried().forEach(c -> exprs.addAll(List.of(c.init(), c.next())));
        walk(l.body(), a, stores, read);
      }
      Set<Expr> seen = new HashSet<>();
      for (Expr e : exprs) {
        read[0] |= reads(e, a, seen);
      }
    }
  }

  private static boolean reads(Expr e, Param.Array a, Set<Expr> seen) {
    if (!seen.add(e)) {
      return false;
    }
    if (e instanceof Expr.Load l && l.array().equals(a)) {
      return true;
    }
    for (Expr o : e.operands()) {
      if (reads(o, a, seen)) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code index} is affine with coefficient 1 in {@code v}: one element per iteration, neighbours for neighbours. */
  private static boolean stepsByOne(Expr index, Expr.Var v) {
    Affine a = AffineAnalysis.affine(index);
    return a != null && a.coefficient(v.name()).equals(Poly.ONE);
  }

  /** The node of {@code e} equal to {@code call} with {@code from} read as {@code to}, or null. */
  private static Expr find(Expr e, Expr call, Expr.Var from, Expr.Var to, Set<Expr> seen) {
    if (!seen.add(e)) {
      return null;
    }
    if (ExprEquivalence.same(call, e, Map.of(from, to))) {
      return e;
    }
    for (Expr o : e.operands()) {
      Expr found = find(o, call, from, to, seen);
      if (found != null) {
        return found;
      }
    }
    return null;
  }

  /** The body with loop {@code i} also storing {@code call} where loop {@code j}'s {@code store} writes, and loop {@code j} reading it there. */
  private static OperatorIr.Grid stash(OperatorIr.Grid op, int i, int j, Stmt.Store store, Expr.Call call, Expr twin) {
    Stmt.Loop loop = (Stmt.Loop) op.body().get(i);
    LaneNest nest = LaneNest.match(loop);
    Stmt.Loop first = nest != null ? nest.inner() : loop;
    Stmt.Loop later = (Stmt.Loop) op.body().get(j);
    ExprFactory f = new ExprFactory();
    Rewriter toFirst = new Rewriter(f, (orig, rebuilt) -> orig == later.index() ? first.index() : rebuilt);
    List<Stmt> firstBody = new ArrayList<>(first.body());
    firstBody.add(new Stmt.Store(store.array(), toFirst.rewrite(store.index()), call, f.trueValue(), store.origin()));
    Stmt.Loop newFirst = new Stmt.Loop(first.id(), first.index(), first.lo(), first.hi(), first.step(), first.guard(),
        first.carried(), firstBody, first.origin());

    Expr[] index = new Expr[1];
    Rewriter inLater = new Rewriter(f, (orig, rebuilt) -> orig == twin
        ? f.load(store.array(), index[0], f.trueValue(), later.id())
        : rebuilt);
    index[0] = inLater.rewrite(store.index());
    List<Stmt> laterBody = new ArrayList<>();
    for (Stmt s : later.body()) {
      Stmt.Store st = (Stmt.Store) s;
      laterBody.add(new Stmt.Store(st.array(), st == store ? index[0] : inLater.rewrite(st.index()),
          inLater.rewrite(st.value()), inLater.rewrite(st.guard()), st.origin()));
    }
    List<Stmt.Carried> carried = new ArrayList<>();
    for (Stmt.Carried c : later.carried()) {
      carried.add(c.with(c.phi(), c.init(), inLater.rewrite(c.next()), c.result()));
    }
    Stmt.Loop newLater = new Stmt.Loop(later.id(), later.index(), later.lo(), later.hi(), later.step(), later.guard(),
        carried, laterBody, later.origin());
    Stmt.Loop replaced = newFirst;
    if (nest != null) {
      replaced = new Stmt.Loop(loop.id(), loop.index(), loop.lo(), loop.hi(), loop.step(), loop.guard(), loop.carried(),
          List.of(newFirst), loop.origin());
      LaneNest newNest = LaneNest.match(replaced);
      if (newNest == null || LaneSums.refusal(newNest) != null) {
        return null;
      }
    } else if (SimdPlan.loopRefusal(newFirst) != null) {
      return null;
    }
    if (SimdPlan.loopRefusal(newLater) != null) {
      return null;
    }
    List<Stmt> body = new ArrayList<>(op.body());
    body.set(i, replaced);
    body.set(j, newLater);
    return op.withBody(body);
  }
}
