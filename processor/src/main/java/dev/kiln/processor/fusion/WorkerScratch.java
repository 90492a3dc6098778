package dev.kiln.processor.fusion;

import dev.kiln.processor.ir.ArrayRole;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.GridDim;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Shape;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.analysis.Affine;
import dev.kiln.processor.ir.analysis.AffineAnalysis;
import dev.kiln.processor.ir.transform.ExprMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The pass that keeps a temporary per worker. A temporary that only one kernel of a fused composite
 * touches, in a kernel over one grid dimension whose every worker {@code w} reads and writes only
 * its own slice {@code [w*S, w*S + S)} of it (the fused edges that made it "each worker reads back
 * only elements it wrote itself"), need not be a composite-sized array at all: each worker can keep
 * its {@code S} elements to itself. The kernel's per-worker form declares such a temporary as a
 * {@link ArrayRole#SCRATCH} array of shape {@code [S]}, indexed by the offset within the slice; the
 * CPU launcher then allocates one slice per thread and reuses it row after row (it stays in cache)
 * instead of a zero-filled array of every worker's slices, written out to memory and read back.
 *
 * <p>Only stores and loads qualify (an accumulation into a temporary stays as it is), and only when
 * every access is affine with the same slice size {@code S} and an offset provably in {@code [0, S)}
 * for every size. The CUDA kernel keeps the temporary (a thread has no memory of a run-time size).
 */
final class WorkerScratch {
  private final ExprFactory f;
  private final Set<String> dims;

  private WorkerScratch(ExprFactory f, Set<String> dims) {
    this.f = f;
    this.dims = dims;
  }

  /** {@code plan} with each kernel's per-worker form set where it has at least one such temporary. */
  static FusionPlan apply(FusionPlan plan, ExprFactory f, Set<String> dims) {
    WorkerScratch pass = new WorkerScratch(f, dims);
    Set<String> temps = plan.temporariesOfOneKernel(FusionPlan.Kernel::ir);
    List<FusionPlan.Kernel> kernels = new ArrayList<>();
    for (FusionPlan.Kernel k : plan.kernels()) {
      OperatorIr.Grid perWorker = pass.perWorker(k, temps);
      kernels.add(perWorker == null ? k : new FusionPlan.Kernel(k.ir(), k.calls(), k.derived(), perWorker));
    }
    return new FusionPlan(plan.composite(), kernels, plan.allocated(), plan.edges(), plan.splits());
  }

  private OperatorIr.Grid perWorker(FusionPlan.Kernel k, Set<String> temps) {
    OperatorIr.Grid op = k.ir();
    if (op.grid().size() != 1 || op.finishes()) {
      return null; // (statements after every worker read the kernel's arrays whole)
    }
    GridDim g = op.grid().get(0);
    Poly extent = g.size();
    for (FusionPlan.Derived d : k.derived()) {
      if (d.param().equals(g.extent())) {
        extent = d.value();
      }
    }
    Ranges ranges = new Ranges(List.of(g.var()), List.of(extent), op.body(), dims);
    Map<Param.Array, Param.Array> scratch = new LinkedHashMap<>();
    for (Param.Array a : op.arrays()) {
      if (!temps.contains(a.name())) {
        continue;
      }
      List<Expr> indices = new ArrayList<>();
      if (!accesses(op.body(), a, indices, new java.util.HashSet<>())) {
        continue;
      }
      Poly slice = slice(indices, g.var().name(), ranges);
      if (slice != null) {
        scratch.put(a, new Param.Array(a.name(), a.position(), a.elementType(), new Shape(slice.toString(), List.of(slice)),
            ArrayRole.SCRATCH));
      }
    }
    if (scratch.isEmpty()) {
      return null;
    }
    ExprMapper offsets = new ExprMapper(f, Map.of(g.var(), f.integral(ScalarType.INT, 0)), f::scalar, a -> a, s -> s, null, null);
    ExprMapper m = new ExprMapper(f, Map.of(), f::scalar, a -> scratch.getOrDefault(a, a), s -> s, null,
        load -> load.array().role() == ArrayRole.SCRATCH
            ? f.load(load.array(), offsets.map(load.index()), load.guard(), load.scope())
            : load);
    List<Param> params = new ArrayList<>();
    op.params().forEach(p -> params.add(p instanceof Param.Array a ? scratch.getOrDefault(a, a) : p));
    return op.withParams(params).withBody(rebaseStores(m.map(op.body()), offsets));
  }

  /**
   * The common slice size {@code S} of every access of one worker's variable {@code w}: each index
   * is {@code w*S + offset} with {@code 0 <= offset < S}; null when one is not.
   */
  private Poly slice(List<Expr> indices, String w, Ranges ranges) {
    Poly size = null;
    for (Expr index : indices) {
      Affine flat = AffineAnalysis.affine(index);
      if (flat == null) {
        return null;
      }
      Poly s = flat.coefficient(w);
      if (size != null && !size.equals(s) || !s.provablyPositive(dims)) {
        return null;
      }
      size = s;
      Affine offset = flat.subtract(Affine.variable(w).scale(s));
      if (!ranges.within(offset, s)) {
        return null;
      }
    }
    return size;
  }

  /** Collects the index of every load and store of {@code a}; false when {@code a} is accumulated into. */
  private static boolean accesses(List<Stmt> body, Param.Array a, List<Expr> out, Set<Expr> seen) {
    for (Stmt s : body) {
      if (s instanceof Stmt.Combine c) {
        if (c.arrays().contains(a)) {
          return false;
        }
        loads(c.index(), a, out, seen);
        loads(c.guard(), a, out, seen);
        for (Expr v : c.values()) {
          loads(v, a, out, seen);
        }
      } else if (s instanceof Stmt.Accumulate acc) {
        if (acc.array().equals(a)) {
          return false;
        }
        loads(acc.index(), a, out, seen);
        loads(acc.value(), a, out, seen);
        loads(acc.guard(), a, out, seen);
      } else if (s instanceof Stmt.Store st) {
        if (st.array().equals(a)) {
          out.add(st.index());
        }
        loads(st.index(), a, out, seen);
        loads(st.value(), a, out, seen);
        loads(st.guard(), a, out, seen);
      } else {
        Stmt.Loop l = (Stmt.Loop) s;
        loads(l.lo(), a, out, seen);
        loads(l.hi(), a, out, seen);
        loads(l.guard(), a, out, seen);
        for (Stmt.Carried c : l.carried()) {
          loads(c.init(), a, out, seen);
          loads(c.next(), a, out, seen);
        }
        if (!accesses(l.body(), a, out, seen)) {
          return false;
        }
      }
    }
    return true;
  }

  private static void loads(Expr e, Param.Array a, List<Expr> out, Set<Expr> seen) {
    if (e == null || !seen.add(e)) {
      return;
    }
    if (e instanceof Expr.Load l && l.array().equals(a)) {
      out.add(l.index());
    }
    for (Expr o : e.operands()) {
      loads(o, a, out, seen);
    }
  }

  /** The stores into scratch arrays indexed by their offset within the worker's slice. */
  private static List<Stmt> rebaseStores(List<Stmt> body, ExprMapper offsets) {
    List<Stmt> out = new ArrayList<>();
    for (Stmt s : body) {
      if (s instanceof Stmt.Store st && st.array().role() == ArrayRole.SCRATCH) {
        out.add(new Stmt.Store(st.array(), offsets.map(st.index()), st.value(), st.guard(), st.origin()));
      } else if (s instanceof Stmt.Loop l) {
        out.add(new Stmt.Loop(l.id(), l.index(), l.lo(), l.hi(), l.step(), l.guard(), l.carried(),
            rebaseStores(l.body(), offsets), l.origin()));
      } else {
        out.add(s);
      }
    }
    return out;
  }
}
