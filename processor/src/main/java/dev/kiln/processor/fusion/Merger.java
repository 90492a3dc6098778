package dev.kiln.processor.fusion;

import dev.kiln.processor.ir.ArrayRole;
import dev.kiln.processor.ir.CompositeIr;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.StmtWalk;
import dev.kiln.processor.ir.transform.DeadStores;
import dev.kiln.processor.ir.transform.ExprMapper;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Fuses the calls of a composite into kernels, in one pass over the calls in source order.
 *
 * <ol>
 *   <li><b>Inline</b> (recompute): a read of a tensor whose single producer stores it at the top
 *       level of its worker, with a loop-free value and an invertible write pattern ({@link
 *       WritePattern}), is replaced by the producer's value at the inverted worker, when the value
 *       is cheap or read once. Split, concat, transpose, reshape and broadcast reads fuse this way,
 *       and so do elementwise prologues of reductions.
 *   <li><b>Merge</b> into the kernel before it: same grid (OVL's rule, and independent calls with
 *       the same grid share a launch), or a grid that extends the kernel's (the extra dimensions
 *       become sequential loops of the kernel's worker: a per-row epilogue after a per-row pass).
 *       A read of what the kernel stored at the reader's own worker becomes the stored value; a
 *       read of elements the same worker wrote earlier stays a read. A kernel that accumulates a
 *       {@code @Reduce} result takes no further calls, since its result is complete only after
 *       every worker ran.
 *   <li><b>Elide</b>: temporaries that no kernel reads any more are never stored or allocated.
 * </ol>
 *
 * Producers computed with a sequential loop (a dot product, a row reduction) or read at many places
 * at a high cost are never recomputed; every decision is recorded with its reason.
 */
public final class Merger {
  /** Producers whose value costs at most this (see {@link Cost}) are recomputed at every read. */
  static final int CHEAP = 40;

  private final CompositeIr composite;
  private final ExprFactory f = new ExprFactory();
  private final Tensors tensors;
  private final Map<String, Param.Scalar> dims = new LinkedHashMap<>();
  private final Set<String> dimNames = new LinkedHashSet<>();
  /**
   * The names an index polynomial may use, to write it as an expression: the {@code @Dim}s and the
   * composite's other {@code int} scalars ({@code x[i + k]} with {@code k} an argument).
   */
  private final Map<String, Param.Scalar> symbols = new LinkedHashMap<>();
  private final Map<Param.Array, List<Integer>> writers = new HashMap<>();
  private final Map<Param.Array, List<Integer>> readers = new HashMap<>();
  private final Map<Param.Array, Producer> producers = new HashMap<>();
  private final Map<Param.Array, String> notInlinable = new HashMap<>();
  private final List<Group> groups = new ArrayList<>();
  /** Per group: its first call and why that call did not join the group before (null for the first group). */
  private final List<FusionPlan.Split> starts = new ArrayList<>();
  private final Map<Integer, Group> groupOf = new HashMap<>();
  private final List<FusionPlan.Edge> edges = new ArrayList<>();
  /** Per call: itself and every call whose value was inlined into it, transitively. */
  private final Map<Integer, java.util.SortedSet<Integer>> contributors = new HashMap<>();
  /** Per call: the calls whose stored values it uses directly inside its kernel. */
  private final Map<Integer, java.util.SortedSet<Integer>> forwardedInto = new HashMap<>();
  private int loopIds;

  /** A tensor that can be recomputed at its reads. */
  private record Producer(CallInstance instance, List<WritePattern> pieces, int cost) {}

  private Merger(CompositeIr composite) {
    this.composite = composite;
    this.tensors = new Tensors(composite);
    f.startOperator();
    for (Param.Scalar d : composite.signature().dims()) {
      dims.put(d.name(), d);
      dimNames.add(d.name());
    }
    for (Param.Scalar s : composite.signature().scalars()) {
      if (s.dim() || s.type() == dev.kiln.processor.ir.ScalarType.INT) {
        symbols.put(s.name(), s);
      }
    }
    for (int i = 0; i < composite.calls().size(); i++) {
      CompositeIr.Call c = composite.calls().get(i);
      for (int k = 0; k < c.args().size(); k++) {
        if (c.args().get(k) instanceof CompositeIr.Arg.Tensor t) {
          Param.Array p = (Param.Array) c.callee().params().get(k);
          (p.role() == ArrayRole.IN ? readers : writers).computeIfAbsent(tensors.get(t.name()), x -> new ArrayList<>()).add(i);
        }
      }
    }
  }

  /** Whether {@code t} is a temporary (zero when allocated) that only one call writes. */
  private boolean zeroed(Param.Array t) {
    return tensors.isTemp(t) && writers.getOrDefault(t, List.of()).size() == 1;
  }

  /** Fuses {@code composite}; kernel names start with {@code kernelPrefix}. */
  public static FusionPlan plan(CompositeIr composite, java.util.function.IntFunction<String> kernelNames) {
    Merger m = new Merger(composite);
    for (int i = 0; i < composite.calls().size(); i++) {
      m.add(i);
    }
    return m.finish(kernelNames);
  }

  private void add(int i) {
    CompositeIr.Call call = composite.calls().get(i);
    CallInstance raw = CallInstance.of(i, call, f, tensors, dims, () -> ++loopIds);
    Ranges ranges = new Ranges(raw.grid(), raw.extents(), raw.body(), dimNames);
    Map<Param.Array, Integer> uses = new HashMap<>();
    countLoads(raw.body(), uses, new java.util.HashSet<>());
    Set<Param.Array> inlined = new LinkedHashSet<>();
    Set<Expr.Load> productOperands = dev.kiln.processor.ir.ProductLoops.operands(raw.body());
    ExprMapper inliner = ExprMapper.loadsOnly(f, load -> {
      Producer p = producers.get(load.array());
      if (p == null || productOperands.contains(load)  // a GEMM operand is read from memory
          || !worthInlining(load, p, uses.getOrDefault(load.array(), 0), raw.grid())) {
        return load;
      }
      inlined.add(load.array());
      return valueAt(p, load, ranges);
    });
    CallInstance inst = new CallInstance(i, call, raw.grid(), raw.extents(), inliner.map(raw.body()));
    java.util.SortedSet<Integer> mine = new java.util.TreeSet<>();
    mine.add(i);
    for (Param.Array t : inlined) {
      mine.addAll(contributors.get(producers.get(t).instance().index()));
    }
    contributors.put(i, mine);
    for (Param.Array t : inlined) {
      Producer p = producers.get(t);
      edge(p.instance().index(), i, t, true, "inlined: each read is mapped back through " + p.instance().id()
          + "'s write pattern " + patterns(p) + " and recomputed (about " + p.cost() + " operations)");
    }
    int at = groups.size() - 1;
    MergeAttempt merge = null;
    Footprint touched = footprint(i, inst);
    int earlier = earlierProducerGroup(touched, inlined);
    if (earlier >= 0) {
      Group g = groups.get(earlier);
      MergeAttempt attempt = MergeAttempt.of(g, inst, isRelated(g, inlined), f, dims, dimNames, () -> ++loopIds,
          this::zeroed);
      if (attempt.merged()) {
        merge = attempt;
        at = earlier;
      }
    }
    if (merge == null) {
      Group previous = at < 0 ? null : groups.get(at);
      boolean related = previous != null && (isRelated(previous, inlined) || readTogetherLater(i, inst, previous));
      merge = MergeAttempt.of(previous, inst, related, f, dims, dimNames, () -> ++loopIds, this::zeroed);
      if (!merge.merged()) {
        for (int g = groups.size() - 2; g >= 0 && !dependent(groups.get(g + 1), touched, inlined); g--) {
          MergeAttempt attempt = MergeAttempt.of(groups.get(g), inst, isRelated(groups.get(g), inlined), f, dims,
              dimNames, () -> ++loopIds, this::zeroed);
          if (attempt.merged()) {
            merge = attempt;
            at = g;
            break;
          }
        }
      }
    }
    Group last = at < 0 ? null : groups.get(at);
    Group target;
    if (merge.merged()) {
      if (merge.replacement() != null) {
        last = merge.replacement();
        groups.set(at, last);
        for (int c : last.calls) {
          groupOf.put(c, last);
        }
      }
      if (merge.afterEveryWorker()) {
        last.addFinish(i, merge.body());
      } else {
        last.add(i, merge.body());
      }
      target = last;
      java.util.SortedSet<Integer> through = new java.util.TreeSet<>();
      for (Param.Array t : merge.forwarded()) {
        for (int w : writers.getOrDefault(t, List.of())) {
          through.addAll(contributors.get(w));
          through.addAll(forwardedInto.getOrDefault(w, new java.util.TreeSet<>()));
        }
      }
      forwardedInto.put(i, through);
    } else {
      target = new Group(inst);
      starts.add(groups.isEmpty() ? null : new FusionPlan.Split(-1, i, merge.why()));
      groups.add(target);
    }
    groupOf.put(i, target);
    recordMaterialisedEdges(i, inst, inlined, merge, target);
    registerProducers(inst);
  }

  private boolean isRelated(Group g, Set<Param.Array> inlined) {
    return inlined.stream().anyMatch(t -> g.calls.contains(producers.get(t).instance().index()));
  }

  /**
   * Whether call {@code i} is worth joining {@code g} although it reads nothing {@code g} computes:
   * its grid extends {@code g}'s (its extra dimensions would become loops of {@code g}'s worker)
   * and a later call reads both something {@code g} wrote and something computed from call {@code
   * i}'s results (directly or through the calls between). That later call can then join one kernel
   * that holds both, where {@code i} in a kernel of its own would leave it split from one of them
   * (a log-softmax's backward pass reads the forward's result and the loss's gradient, which a
   * call on the finer grid computes).
   */
  private boolean readTogetherLater(int i, CallInstance inst, Group g) {
    List<dev.kiln.processor.ir.Poly> e = inst.extents();
    if (e.size() <= g.extents.size() || !e.subList(0, g.extents.size()).equals(g.extents) || g.reduces) {
      return false;
    }
    Set<Param.Array> downstream = new LinkedHashSet<>(writtenBy(i));
    for (int j = i + 1; j < composite.calls().size(); j++) {
      List<Param.Array> reads = readBy(j);
      boolean fromCall = reads.stream().anyMatch(downstream::contains);
      if (fromCall && reads.stream().anyMatch(g.written::contains)) {
        return true;
      }
      if (fromCall) {
        downstream.addAll(writtenBy(j));
      }
    }
    return false;
  }

  private List<Param.Array> readBy(int call) {
    return tensorsOf(readers, call);
  }

  /**
   * The group before the last that wrote a tensor the call reads, when every group after it
   * is independent of the call (writes nothing it reads, reads and writes nothing it writes, wrote
   * none of the values inlined into it): then
   * the call may run in that group, ahead of them, and read its producer's values in the same
   * kernel. -1 when there is none (the producer is the last group, or something in between
   * depends on the call or it on them).
   */
  private int earlierProducerGroup(Footprint call, Set<Param.Array> inlined) {
    int producer = -1;
    for (int g = groups.size() - 2; g >= 0 && producer < 0; g--) {
      for (Param.Array t : call.reads()) {
        if (groups.get(g).written.contains(t)) {
          producer = g;
        }
      }
    }
    if (producer < 0) {
      return -1;
    }
    for (int g = producer + 1; g < groups.size(); g++) {
      if (dependent(groups.get(g), call, inlined)) {
        return -1;
      }
    }
    return producer;
  }

  /** The tensors a call reads and those it writes. */
  private record Footprint(Set<Param.Array> reads, Set<Param.Array> writes) {}

  private Footprint footprint(int i, CallInstance inst) {
    Set<Param.Array> reads = new LinkedHashSet<>();
    collectLoads(inst.body(), reads);
    return new Footprint(reads, new LinkedHashSet<>(writtenBy(i)));
  }

  /**
   * Whether a call (its footprint {@code call}, the values inlined into it {@code inlined}) depends
   * on kernel {@code g} or {@code g} on it: {@code g} writes what the call reads, reads or writes
   * what it writes, or made a value inlined into it. A call may run in an earlier kernel only ahead
   * of kernels it is independent of.
   */
  private boolean dependent(Group g, Footprint call, Set<Param.Array> inlined) {
    Set<Param.Array> reads = call.reads();
    Set<Param.Array> writes = call.writes();
    Set<Param.Array> read = new LinkedHashSet<>();
    collectLoads(g.everything(), read);
    Set<Param.Array> wrote = new LinkedHashSet<>(g.written);
    for (int c : g.calls) {
      wrote.addAll(writtenBy(c));
    }
    return reads.stream().anyMatch(wrote::contains) || writes.stream().anyMatch(t -> read.contains(t) || wrote.contains(t))
        || isRelated(g, inlined);
  }

  private void recordMaterialisedEdges(int i, CallInstance inst, Set<Param.Array> inlined, MergeAttempt merge, Group target) {
    Set<Param.Array> read = new LinkedHashSet<>();
    collectLoads(inst.body(), read);
    for (Param.Array t : read) {
      if (inlined.contains(t)) {
        continue;
      }
      for (int w : writers.getOrDefault(t, List.of())) {
        if (w >= i) {
          continue;
        }
        String producer = composite.calls().get(w).id();
        if (groupOf.get(w) == target) {
          edge(w, i, t, true, merge.reason(t) != null ? merge.reason(t) : "same kernel");
        } else {
          String why = notInlinable.containsKey(t) ? notInlinable.get(t) : producers.containsKey(t)
              ? "recomputing " + producer + " (about " + producers.get(t).cost() + " operations per element) wherever"
                  + " it is read would repeat that work, so it is stored once" : "it is not recomputed";
          String barrier = merge.reason(t) != null ? merge.reason(t)
              : merge.merged() ? "it is stored by an earlier kernel" : merge.general();
          edge(w, i, t, false, why + "; " + barrier);
        }
      }
    }
  }

  private List<Param.Array> writtenBy(int call) {
    return tensorsOf(writers, call);
  }

  /** The tensors whose list of calls in {@code byTensor} ({@link #readers} or {@link #writers}) holds {@code call}. */
  private static List<Param.Array> tensorsOf(Map<Param.Array, List<Integer>> byTensor, int call) {
    List<Param.Array> out = new ArrayList<>();
    byTensor.forEach((t, calls) -> {
      if (calls.contains(call)) {
        out.add(t);
      }
    });
    return out;
  }

  private void edge(int from, int to, Param.Array t, boolean fused, String reason) {
    edges.add(new FusionPlan.Edge(from, to, t.name(), fused, reason));
  }

  private static String patterns(Producer p) {
    StringBuilder b = new StringBuilder();
    for (WritePattern w : p.pieces()) {
      b.append(b.length() == 0 ? "" : " and ").append(w.text());
    }
    return b.toString();
  }

  /**
   * Cheap producers are recomputed at every read. A costly one only when its element is computed
   * once anyway: one reader, one read, outside sequential loops, at an index that moves with every
   * grid variable of the reader (so no two workers read the same element).
   */
  private boolean worthInlining(Expr.Load load, Producer p, int usesHere, List<Expr.Var> grid) {
    if (p.cost() <= CHEAP) {
      return true;
    }
    if (readers.getOrDefault(load.array(), List.of()).size() != 1 || usesHere != 1 || load.scope() != 0) {
      return false;
    }
    dev.kiln.processor.ir.analysis.Affine a = dev.kiln.processor.ir.analysis.AffineAnalysis.affine(load.index());
    return a != null && grid.stream().allMatch(v -> !a.coefficient(v.name()).isZero());
  }

  /**
   * The producer's value at a read: the last store (in program order) whose worker wrote the element
   * wins, else zero (a fresh temporary) or what memory holds (a parameter).
   */
  private Expr valueAt(Producer p, Expr.Load read, Ranges ranges) {
    Expr out = tensors.isTemp(read.array()) ? f.constant(read.type(), 0) : read;
    for (WritePattern w : p.pieces()) {
      Expr[] cv = w.at(f, read, ranges, symbols);
      out = f.select(cv[0], cv[1], out);
    }
    return out;
  }

  private void registerProducers(CallInstance inst) {
    CompositeIr.Call call = inst.call();
    for (int k = 0; k < call.args().size(); k++) {
      if (!(call.args().get(k) instanceof CompositeIr.Arg.Tensor arg)
          || ((Param.Array) call.callee().params().get(k)).role() == ArrayRole.IN) {
        continue;
      }
      Param.Array t = tensors.get(arg.name());
      String why = whyNotInlinable(inst, t);
      if (why != null) {
        notInlinable.put(t, why);
        continue;
      }
      Ranges ranges = new Ranges(inst.grid(), inst.extents(), inst.body(), dimNames);
      List<WritePattern> pieces = new ArrayList<>();
      int cost = 0;
      for (Stmt s : inst.body()) {
        if (s instanceof Stmt.Store st && st.array() == t) {
          WritePattern w = WritePattern.of(inst, st, ranges);
          if (w == null) {
            notInlinable.put(t, inst.id() + " writes '" + t.name() + "' with an index that is not a grid coordinate plus an offset in each dimension, so a read cannot be mapped back to one worker");
            pieces = null;
            break;
          }
          pieces.add(w); // program order: valueAt wraps later stores around earlier ones
          cost += Cost.of(st.value()) + Cost.of(st.guard());
        }
      }
      if (pieces != null) {
        producers.put(t, new Producer(inst, pieces, cost));
      }
    }
  }

  private String whyNotInlinable(CallInstance inst, Param.Array t) {
    if (writers.get(t).size() > 1) {
      return "'" + t.name() + "' is written by several calls";
    }
    if (!tensors.isTemp(t) && readers.getOrDefault(t, List.of()).isEmpty()) {
      return "'" + t.name() + "' is an output";
    }
    for (Stmt s : inst.body()) {
      if (StmtWalk.reduces(s) && StmtWalk.arraysWritten(s).contains(t)) {
        return "'" + t.name() + "' is a @Reduce result of " + inst.id();
      }
      if (s instanceof Stmt.Loop l && DeadStores.writes(l.body(), t)) {
        return inst.id() + " writes '" + t.name() + "' inside a sequential loop";
      }
      if (s instanceof Stmt.Store st && st.array() == t && !Cost.loopFree(st.value(), st.guard(), st.index())) {
        return inst.id() + " computes '" + t.name() + "' with a sequential loop; recomputing it at each read would repeat the loop";
      }
    }
    return null;
  }

  static void countLoads(List<Stmt> body, Map<Param.Array, Integer> uses, Set<Expr> seen) {
    for (Stmt s : body) {
      List<Expr> roots = new ArrayList<>();
      if (s instanceof Stmt.Store st) {
        roots.addAll(List.of(st.index(), st.value(), st.guard()));
      } else if (s instanceof Stmt.Accumulate a) {
        roots.addAll(List.of(a.index(), a.value(), a.guard()));
      } else if (s instanceof Stmt.Combine c) {
        roots.addAll(List.of(c.index(), c.guard()));
        roots.addAll(c.values());
      } else {
        Stmt.Loop l = (Stmt.Loop) s;
        roots.addAll(List.of(l.lo(), l.hi(), l.guard()));
        l.carried().forEach(c -> { roots.add(c.init()); roots.add(c.next()); });
        countLoads(l.body(), uses, seen);
      }
      for (Expr r : roots) {
        countLoads(r, uses, seen);
      }
    }
  }

  private static void countLoads(Expr e, Map<Param.Array, Integer> uses, Set<Expr> seen) {
    if (!seen.add(e)) {
      return;
    }
    if (e instanceof Expr.Load l) {
      uses.merge(l.array(), 1, Integer::sum);
    }
    for (Expr o : e.operands()) {
      countLoads(o, uses, seen);
    }
  }

  /**
   * A user monoid's combine reads every component of the record it updates: when one component is
   * live, all are (else a store of the record's starting value into a component nobody else reads
   * would be dropped, and the combine would start that component from zero).
   */
  private static void wholeRecords(List<Stmt> body, Set<Param.Array> live) {
    for (Stmt s : body) {
      if (s instanceof Stmt.Combine c && c.arrays().stream().anyMatch(live::contains)) {
        live.addAll(c.arrays());
      } else if (s instanceof Stmt.Loop l) {
        wholeRecords(l.body(), live);
      }
    }
  }

  static void collectLoads(List<Stmt> body, Set<Param.Array> out) {
    Map<Param.Array, Integer> uses = new LinkedHashMap<>();
    countLoads(body, uses, new java.util.HashSet<>());
    out.addAll(uses.keySet());
  }

  private FusionPlan finish(java.util.function.IntFunction<String> kernelNames) {
    // a temporary is live while a kept statement reads it; dropping dead stores can kill more
    Set<Param.Array> live = new LinkedHashSet<>();
    List<List<Stmt>> bodies = new ArrayList<>();
    List<List<Stmt>> finishes = new ArrayList<>();
    groups.forEach(g -> bodies.add(g.body));
    groups.forEach(g -> finishes.add(g.finish));
    while (true) {
      Set<Param.Array> next = new LinkedHashSet<>();
      for (int k = 0; k < bodies.size(); k++) {
        collectLoads(bodies.get(k), next);
        collectLoads(finishes.get(k), next);
      }
      for (List<Stmt> b : bodies) {
        wholeRecords(b, next);
      }
      Set<Param.Array> keep = next;
      bodies.replaceAll(b -> DeadStores.prune(b, a -> !tensors.isTemp(a) || keep.contains(a)));
      finishes.replaceAll(b -> DeadStores.prune(b, a -> !tensors.isTemp(a) || keep.contains(a)));
      if (next.equals(live)) {
        break;
      }
      live = next;
    }
    List<FusionPlan.Kernel> kernels = new ArrayList<>();
    List<FusionPlan.Split> splits = new ArrayList<>();
    int lastEmitted = -1;
    KernelFinisher finisher = new KernelFinisher(composite.signature().owner(), f, tensors, dims);
    for (int k = 0; k < groups.size(); k++) {
      List<Stmt> body = bodies.get(k);
      List<Stmt> after = finishes.get(k);
      if (body.isEmpty() && after.isEmpty()) {
        continue;
      }
      if (!kernels.isEmpty() && starts.get(k) != null) {
        String reason = starts.get(k).reason();
        if (lastEmitted != k - 1) {
          // the group the call did not join was emptied since (its values recomputed where read)
          reason = "at the time, the kernel before it was another one, dropped since (nothing of it is stored): " + reason;
        }
        splits.add(new FusionPlan.Split(kernels.size(), starts.get(k).call(), reason));
      }
      lastEmitted = k;
      Set<Param.Array> kept = new LinkedHashSet<>();
      for (Param.Array a : tensors.all()) {
        if (DeadStores.writes(body, a) || DeadStores.writes(after, a)) {
          kept.add(a);
        }
      }
      java.util.SortedSet<Integer> work = new java.util.TreeSet<>();
      for (int c : groups.get(k).calls) {
        if (writtenBy(c).stream().anyMatch(kept::contains)) {
          work.addAll(contributors.get(c));
          work.addAll(forwardedInto.getOrDefault(c, new java.util.TreeSet<>()));
        }
      }
      kernels.add(finisher.kernel(kernelNames.apply(kernels.size()), groups.get(k), body, after, List.copyOf(work)));
    }
    List<CompositeIr.Temp> allocated = new ArrayList<>();
    for (Param.Array a : tensors.all()) {
      if (tensors.isTemp(a) && live.contains(a)) {
        allocated.add(tensors.temp(a));
      }
    }
    return WorkerScratch.apply(new FusionPlan(composite, kernels, allocated, edges, splits), f, dimNames);
  }
}
