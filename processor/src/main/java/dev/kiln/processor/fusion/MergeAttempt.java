package dev.kiln.processor.fusion;

import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.PolyExpr;
import dev.kiln.processor.ir.ProductLoops;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Shape;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.StmtWalk;
import dev.kiln.processor.ir.analysis.Affine;
import dev.kiln.processor.ir.analysis.AffineAnalysis;
import dev.kiln.processor.ir.transform.ExprMapper;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntSupplier;

/**
 * Whether a call joins the kernel before it, and the call's statements rewritten into that
 * kernel's worker when it does. See {@link Merger} for the rules; {@link #reason} says, per tensor
 * the call reads from the kernel, why it was or was not passed inside one kernel.
 */
final class MergeAttempt {
  private final boolean merged;
  private final List<Stmt> body;
  private final Map<Param.Array, TensorReason> reasons;
  private final String general;
  /** When the kernel before had to give up trailing grid dimensions to take the call: its new form. */
  private Group replacement;

  /**
   * Why one tensor the call reads from the kernel was or was not passed inside it: {@code forwarded}
   * when the call uses the value stored at its worker directly (the producer's work is then part of
   * its kernel), and the reason in words for the listing and the report.
   */
  private record TensorReason(boolean forwarded, String text) {
    static TensorReason refused(String text) {
      return new TensorReason(false, text);
    }

    TensorReason and(String more) {
      return new TensorReason(forwarded, text + more);
    }
  }

  /** Whether the call's statements run once after every worker of the kernel ({@link Group#finish}). */
  private boolean afterEveryWorker;

  private MergeAttempt(boolean merged, List<Stmt> body, Map<Param.Array, TensorReason> reasons, String general) {
    this.merged = merged;
    this.body = body;
    this.reasons = reasons;
    this.general = general;
  }

  /**
   * The call joins as statements after every worker of the kernel; {@code reasons} says, per tensor
   * it reads from the kernel, why that is one kernel.
   */
  static MergeAttempt afterEveryWorker(List<Stmt> body, Map<Param.Array, String> reasons) {
    Map<Param.Array, TensorReason> why = new LinkedHashMap<>();
    reasons.forEach((t, r) -> why.put(t, new TensorReason(false, r)));
    MergeAttempt out = new MergeAttempt(true, body, why, null);
    out.afterEveryWorker = true;
    return out;
  }

  /** Whether the call joined as statements after every worker ({@link Group#addFinish}). */
  boolean afterEveryWorker() {
    return afterEveryWorker;
  }

  private static MergeAttempt no(String general) {
    return new MergeAttempt(false, null, Map.of(), general);
  }

  /** Tensors whose stored value the call now uses directly (their producers' work is part of its kernel). */
  Set<Param.Array> forwarded() {
    Set<Param.Array> out = new LinkedHashSet<>();
    reasons.forEach((t, r) -> {
      if (r.forwarded()) {
        out.add(t);
      }
    });
    return out;
  }

  private static final String FORWARDED = "one kernel: the value stored at this worker is used directly";

  /** The kernel the call merged into, when it is not the kernel before as it was. */
  Group replacement() {
    return replacement;
  }

  boolean merged() {
    return merged;
  }

  List<Stmt> body() {
    return body;
  }

  String reason(Param.Array tensor) {
    TensorReason r = reasons.get(tensor);
    return r == null ? null : r.text();
  }

  String general() {
    return general;
  }

  /** Why the call did not join: the general reason, else the reasons per tensor it reads from the kernel. */
  String why() {
    if (general != null && !general.isEmpty()) {
      return general;
    }
    List<String> each = new ArrayList<>();
    reasons.forEach((t, r) -> each.add("'" + t.name() + "': " + r.text()));
    return each.isEmpty() ? "no rule let it join" : String.join("; ", each);
  }

  /**
   * @param related whether the call recomputes (inlined) a value that a call of {@code g} produced:
   *     a dependence worth a merge even when no read of memory remains
   */
  static MergeAttempt of(Group g, CallInstance c, boolean related, ExprFactory f, Map<String, Param.Scalar> dims, Set<String> dimNames, IntSupplier loopIds) {
    return of(g, c, related, f, dims, dimNames, loopIds, a -> false);
  }

  /**
   * @param zeroed whether an array is a temporary that nothing but the kernel's own accumulation
   *     writes (it starts at zero, so a reduction by rows carried by one worker starts from 0
   *     instead of loading it)
   */
  static MergeAttempt of(Group g, CallInstance c, boolean related, ExprFactory f, Map<String, Param.Scalar> dims,
      Set<String> dimNames, IntSupplier loopIds, java.util.function.Predicate<Param.Array> zeroed) {
    String id = c.id();
    if (g == null) {
      return no("it is stored by its kernel and read back by a later one");
    }
    Set<Param.Array> reads = new LinkedHashSet<>();
    Merger.collectLoads(c.body(), reads);
    Set<Param.Array> fromG = new LinkedHashSet<>(reads);
    fromG.retainAll(g.written);
    if (g.reduces && !fromG.isEmpty()) {
      Group owned = RowReductions.owned(g, c.extents(), f, dims, loopIds, zeroed);
      if (owned != null) {
        MergeAttempt again = of(owned, c, related, f, dims, dimNames, loopIds, zeroed);
        if (again.merged()) {
          again.replacement = again.replacement == null ? owned : again.replacement;
          boolean rows = owned.grid.equals(g.grid.subList(0, owned.grid.size()));
          again.reasons.replaceAll((t, r) -> r.and(rows
              ? "; the kernel before reduces by rows, so it runs its trailing grid dimensions as loops and one worker"
                  + " adds up each row's terms in order"
              : "; the kernel before reduces down columns, so it runs the grid dimensions it sums over as loops and"
                  + " one worker adds up each column's terms in order"));
          return again;
        }
      }
    }
    if (g.reduces) {
      MergeAttempt after = AfterEveryWorker.attempt(g, c, fromG);
      if (after != null) {
        return after;
      }
      Map<Param.Array, TensorReason> why = new HashMap<>();
      for (Param.Array t : fromG) {
        why.put(t, TensorReason.refused("'" + t.name() + "' is a @Reduce result: it is complete only after every worker of its kernel has added to it, so " + id + " starts a new kernel"));
      }
      return new MergeAttempt(false, null, why, "the kernel before accumulates a @Reduce result and takes no more calls");
    }
    if (Group.accumulates(c.body())) {
      return no(id + " accumulates a @Reduce result, which runs as a kernel of its own");
    }
    boolean shorter = !c.extents().isEmpty() && c.extents().size() < g.extents.size()
        && g.extents.subList(0, c.extents().size()).equals(c.extents());
    if (shorter && ProductLoops.any(g.body)) {
      return no("the kernel before computes a matrix product, which keeps its grid to run as a library GEMM (the contraction pass)");
    }
    if (shorter && (related || !fromG.isEmpty())) {
      // a per-row consumer of a per-element producer: the producer's trailing dimensions become loops
      Group demoted = g.demotedTo(c.extents().size(), f, dims, loopIds);
      MergeAttempt again = of(demoted, c, related, f, dims, dimNames, loopIds);
      if (again.merged()) {
        again.replacement = demoted;
        again.reasons.replaceAll((t, r) -> r.and("; the kernel before runs its trailing grid dimensions as loops, so one worker owns a row"));
      }
      return again;
    }
    boolean equal = g.extents.equals(c.extents());
    boolean extends_ = g.extents.size() < c.extents().size() && c.extents().subList(0, g.extents.size()).equals(g.extents);
    if (!equal && !extends_) {
      return no("the grids differ (" + c.extents() + " after " + g.extents + ") and neither extends the other");
    }
    if (extends_ && ProductLoops.any(c.body())) {
      return no(id + " is a matrix product, which keeps its grid to run as a library GEMM (the contraction pass)"
          + " rather than become a sequential loop of the kernel before");
    }
    if (!equal && g.extents.isEmpty()) {
      return no(id + " stays parallel in a kernel of its own rather than run on the single worker of the kernel before");
    }
    if (!equal && fromG.isEmpty() && !related) {
      return no(id + " reads nothing the kernel before computes, and joining it would make its grid dimensions sequential loops");
    }
    Set<Param.Array> gReads = new LinkedHashSet<>();
    Merger.collectLoads(g.everything(), gReads);
    for (Param.Array w : Group.arraysWritten(c.body())) {
      if (gReads.contains(w) || g.written.contains(w)) {
        return no(id + " writes '" + w.name() + "', which the kernel before also uses");
      }
    }

    Map<Expr.Var, Expr> vars = new HashMap<>();
    List<Expr.Var> loops = new ArrayList<>();
    List<Integer> loopIdsOf = new ArrayList<>();
    for (int k = 0; k < c.grid().size(); k++) {
      if (k < g.grid.size()) {
        vars.put(c.grid().get(k), g.grid.get(k));
      } else {
        Expr.Var v = f.newVar(c.grid().get(k).name(), ScalarType.INT, Expr.VarKind.LOOP_INDEX);
        vars.put(c.grid().get(k), v);
        loops.add(v);
        loopIdsOf.add(loopIds.getAsInt());
      }
    }
    int top = loops.isEmpty() ? 0 : loopIdsOf.get(loopIdsOf.size() - 1);
    Map<Param.Array, TensorReason> reasons = new LinkedHashMap<>();
    List<Expr.Load> sameWorker = new ArrayList<>();
    ExprMapper m = new ExprMapper(f, vars, f::scalar, a -> a, s -> s == 0 ? top : s, null, load -> {
      if (!g.written.contains(load.array())) {
        return load;
      }
      Stmt.Store st = g.topLevelStore(load.array(), load.index());
      if (st != null) {
        reasons.putIfAbsent(load.array(), new TensorReason(true, FORWARDED
            + (extends_ ? " by the loops that " + id + "'s extra grid dimensions became" : "")));
        // a guarded load reads zero where its guard fails, and so must the value that replaces it
        return load.guard() instanceof Expr.Const k && k.isTrue() ? st.value()
            : f.select(load.guard(), st.value(), f.constant(load.type(), 0));
      }
      sameWorker.add(load);
      return load;
    });
    List<Stmt> body = m.map(c.body());
    for (int k = loops.size() - 1; k >= 0; k--) {
      int ck = g.grid.size() + k;
      body = List.of(new Stmt.Loop(loopIdsOf.get(k), loops.get(k), f.integral(ScalarType.INT, 0),
          PolyExpr.of(f, c.extents().get(ck), dims), 1, f.trueValue(), List.of(), body, null));
    }
    Ranges gRanges = new Ranges(g.grid, g.extents, g.body, dimNames);
    Ranges cRanges = new Ranges(g.grid, g.extents, body, dimNames);
    for (Expr.Load load : sameWorker) {
      for (Expr w : storeIndices(g.body, load.array())) {
        if (!sameWorker(w, load.index(), load.array().shape(), g.grid, gRanges, cRanges)) {
          Map<Param.Array, TensorReason> why = new HashMap<>();
          why.put(load.array(), TensorReason.refused(id + " reads '" + load.array().name() + "' at elements that other workers of the kernel before may write, so it needs the whole array first"));
          return new MergeAttempt(false, null, why, "");
        }
      }
      reasons.putIfAbsent(load.array(), new TensorReason(false, "one kernel: each worker reads back only elements it wrote itself"));
    }
    return new MergeAttempt(true, body, reasons, null);
  }

  private static List<Expr> storeIndices(List<Stmt> body, Param.Array a) {
    List<Expr> out = new ArrayList<>();
    for (Stmt s : body) {
      if (s instanceof Stmt.Store st && st.array() == a) {
        out.add(st.index());
      } else if (s instanceof Stmt.Accumulate ac && ac.array() == a) {
        out.add(ac.index());
      } else if (s instanceof Stmt.Loop l) {
        out.addAll(storeIndices(l.body(), a));
      }
    }
    return out;
  }

  /**
   * Whether every element a worker reads at {@code read} can only have been written, at {@code
   * write}, by that same worker: the coordinates that hold grid variables in the write are one grid
   * variable plus a constant each, and the read has the very same coordinates there.
   */
  static boolean sameWorker(Expr write, Expr read, Shape shape, List<Expr.Var> grid, Ranges wRanges, Ranges rRanges) {
    Affine wa = AffineAnalysis.affine(write);
    Affine ra = AffineAnalysis.affine(read);
    if (wa == null || ra == null) {
      return false;
    }
    List<Affine> w = AffineAnalysis.delinearize(wa, shape);
    List<Affine> r = AffineAnalysis.delinearize(ra, shape);
    for (int j = 1; j < shape.rank(); j++) {
      if (!wRanges.within(w.get(j), shape.extents().get(j)) || !rRanges.within(r.get(j), shape.extents().get(j))) {
        return false;
      }
    }
    for (Expr.Var g : grid) {
      int found = -1;
      for (int j = 0; j < w.size(); j++) {
        if (!w.get(j).coefficient(g.name()).isZero()) {
          found = j;
        }
      }
      if (found < 0) {
        return false;
      }
      Affine c = w.get(found);
      if (c.coefficients().size() != 1 || !c.coefficient(g.name()).equals(Poly.ONE) || !c.equals(r.get(found))) {
        return false;
      }
    }
    return true;
  }
}
