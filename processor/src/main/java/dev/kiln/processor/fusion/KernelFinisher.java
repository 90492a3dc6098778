package dev.kiln.processor.fusion;

import dev.kiln.processor.ir.ArrayRole;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.GridDim;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.transform.ExprMapper;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns a merged group into a grid operator that the CPU and CUDA writers compile like any other:
 * parameters are the composite's sizes, the derived grid extents, the arrays the kernel touches
 * (with their role in this kernel) and the composite's scalars it uses.
 */
final class KernelFinisher {
  private final ExprFactory f;
  private final Tensors tensors;
  private final Map<String, Param.Scalar> dims;
  private final String owner;
  /** Names in use in the composite's launcher: its parameters and every derived size so far. */
  private final Set<String> taken = new HashSet<>();
  private int derivedCount;

  KernelFinisher(String owner, ExprFactory f, Tensors tensors, Map<String, Param.Scalar> dims) {
    this.owner = owner;
    this.f = f;
    this.tensors = tensors;
    this.dims = dims;
  }

  /**
   * @param finish the statements that run once after every worker ({@link OperatorIr.Grid#finish})
   * @param calls the calls whose work the kernel does (merged into it or inlined there)
   */
  FusionPlan.Kernel kernel(String name, Group g, List<Stmt> body, List<Stmt> finish, List<Integer> calls) {
    List<Param> params = new ArrayList<>();
    Map<Param.Scalar, Param.Scalar> scalars = new HashMap<>();
    for (Param.Array a : tensors.all()) {
      taken.add(a.name());
    }
    for (Param.Scalar d : dims.values()) {
      Param.Scalar mine = new Param.Scalar(d.name(), params.size(), ScalarType.INT, true);
      params.add(mine);
      scalars.put(d, mine);
      taken.add(d.name());
    }
    List<FusionPlan.Derived> derived = new ArrayList<>();
    List<GridDim> grid = new ArrayList<>();
    for (int k = 0; k < g.grid.size(); k++) {
      Poly e = g.extents.get(k);
      Param.Scalar extent = single(e, scalars);
      if (extent == null) {
        String n = "extent" + derivedCount++;
        while (taken.contains(n)) {
          n = "extent" + derivedCount++;
        }
        taken.add(n);
        extent = new Param.Scalar(n, params.size(), ScalarType.INT, true);
        params.add(extent);
        derived.add(new FusionPlan.Derived(extent, e));
      }
      grid.add(new GridDim(g.grid.get(k), extent));
    }
    Usage use = new Usage();
    use.scan(body);
    use.scan(finish);
    Map<Param.Array, Param.Array> arrays = new LinkedHashMap<>();
    for (Param.Array a : tensors.all()) {
      if (use.read.contains(a) || use.stored.contains(a) || use.accumulated.contains(a)) {
        ArrayRole role = use.accumulated.contains(a) ? ArrayRole.REDUCE : use.stored.contains(a) ? ArrayRole.OUT : ArrayRole.IN;
        Param.Array mine = new Param.Array(a.name(), params.size(), a.elementType(), a.shape(), role);
        params.add(mine);
        arrays.put(a, mine);
      }
    }
    for (Param.Scalar s : use.scalars) {
      if (!s.dim() && !scalars.containsKey(s)) {
        Param.Scalar mine = new Param.Scalar(s.name(), params.size(), s.type(), false);
        params.add(mine);
        scalars.put(s, mine);
      }
    }
    ExprMapper m = new ExprMapper(f, Map.of(), s -> f.scalar(scalars.get(s)), arrays::get, s -> s, null, null);
    List<Stmt> worker = m.map(body);
    OperatorIr.Grid ir = new OperatorIr.Grid(owner, name, params, grid, worker, Map.of(), m.map(finish));
    return new FusionPlan.Kernel(ir, calls, derived);
  }

  private static Param.Scalar single(Poly e, Map<Param.Scalar, Param.Scalar> scalars) {
    if (e.terms().size() != 1) {
      return null;
    }
    var t = e.terms().entrySet().iterator().next();
    if (t.getValue() != 1 || t.getKey().size() != 1) {
      return null;
    }
    for (var s : scalars.entrySet()) {
      if (s.getKey().name().equals(t.getKey().get(0))) {
        return s.getValue();
      }
    }
    return null;
  }

  /** The arrays and scalar parameters a kernel body uses. */
  private static final class Usage {
    final Set<Param.Array> read = new HashSet<>();
    final Set<Param.Array> stored = new HashSet<>();
    final Set<Param.Array> accumulated = new HashSet<>();
    final Set<Param.Scalar> scalars = new java.util.LinkedHashSet<>();
    private final Set<Expr> seen = new HashSet<>();

    void scan(List<Stmt> body) {
      for (Stmt s : body) {
        if (s instanceof Stmt.Store st) {
          stored.add(st.array());
          exprs(st.index(), st.value(), st.guard());
        } else if (s instanceof Stmt.Accumulate a) {
          accumulated.add(a.array());
          exprs(a.index(), a.value(), a.guard());
        } else if (s instanceof Stmt.Combine c) {
          accumulated.addAll(c.arrays());
          exprs(c.index(), c.guard());
          c.values().forEach(this::exprs);
        } else {
          Stmt.Loop l = (Stmt.Loop) s;
          exprs(l.lo(), l.hi(), l.guard());
          l.carried().forEach(c -> exprs(c.init(), c.next()));
          scan(l.body());
        }
      }
    }

    private void exprs(Expr... roots) {
      for (Expr r : roots) {
        walk(r);
      }
    }

    private void walk(Expr e) {
      if (!seen.add(e)) {
        return;
      }
      if (e instanceof Expr.Load l) {
        read.add(l.array());
      } else if (e instanceof Expr.ScalarRef s) {
        scalars.add(s.param());
      }
      for (Expr o : e.operands()) {
        walk(o);
      }
    }
  }
}
