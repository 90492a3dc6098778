package dev.kiln.processor.shard;

import dev.kiln.processor.fusion.FusionPlan;
import dev.kiln.processor.ir.ArrayRole;
import dev.kiln.processor.ir.CompositeIr;
import dev.kiln.processor.ir.GridDim;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.ReduceKind;
import dev.kiln.processor.report.ShardReport;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The shard plan of each operator of a class ({@link ShardReport}): the first of its sizes it can
 * be split along ({@link ShardAnalysis}), trying the sizes of its {@code @Parallel} loops from the
 * outermost, then its other {@code @Dim}s; a composite along a size when every kernel of its fused
 * plan is (a kernel not running along it is run whole by every part), the same array in the same
 * role in each.
 */
public final class Sharding {
  private Sharding() {}

  /**
   * The plan of a grid operator.
   *
   * @param offsets the operator's {@code @Offset} parameters, each with the {@code @Dim} it offsets
   */
  public static ShardReport.Operator grid(OperatorIr.Grid op, Map<String, String> offsets) {
    List<String> refusals = new ArrayList<>();
    for (String dim : candidates(op, op.grid())) {
      ShardAnalysis.Verdict v = ShardAnalysis.of(op, dim, offsetsOf(offsets, dim));
      if (v.refusal() == null && !v.alongDim()) {
        refusals.add(dim + ": no @Parallel loop runs over it");
      } else if (v.refusal() != null) {
        refusals.add(dim + ": " + v.refusal());
      } else {
        return new ShardReport.Operator(op.name(), "grid", plan(op, dim, offsets, v.arrays(), v.reductions(), v.rowWork()), refusals);
      }
    }
    return new ShardReport.Operator(op.name(), "grid", null, refusals);
  }

  /** The plan of a composite, from the kernels of its fused plan. */
  public static ShardReport.Operator composite(FusionPlan plan, Map<String, String> offsets) {
    OperatorIr op = plan.composite().signature();
    List<String> refusals = new ArrayList<>();
    dims:
    for (String dim : candidates(op, List.of())) {
      Map<String, ShardAnalysis.Role> roles = new HashMap<>();
      Poly work = Poly.ZERO;
      boolean along = false;
      for (int k = 0; k < plan.kernels().size(); k++) {
        OperatorIr.Grid kernel = plan.kernels().get(k).ir();
        ShardAnalysis.Verdict v = ShardAnalysis.of(kernel, dim, offsetsOf(offsets, dim));
        if (v.refusal() != null) {
          refusals.add(dim + ": kernel " + k + " (" + kernel.name() + "): " + v.refusal());
          continue dims;
        }
        along |= v.alongDim();
        work = work.add(v.rowWork());
        for (Map.Entry<String, ShardAnalysis.Role> e : v.arrays().entrySet()) {
          ShardAnalysis.Role before = roles.putIfAbsent(e.getKey(), e.getValue());
          if (before != null && before != e.getValue()) {
            refusals.add(dim + ": '" + e.getKey() + "' is " + before.text + " in one kernel and " + e.getValue().text + " in kernel " + k);
            continue dims;
          }
        }
      }
      if (!along) {
        refusals.add(dim + ": no kernel of its plan runs along it");
        continue;
      }
      Set<String> params = op.arrays().stream().map(Param::name).collect(Collectors.toSet());
      for (Map.Entry<String, ShardAnalysis.Role> e : roles.entrySet()) {
        String name = e.getKey();
        ShardAnalysis.Role role = e.getValue();
        if (role == ShardAnalysis.Role.REDUCE || role == ShardAnalysis.Role.SUM && !params.contains(name)) {
          refusals.add(dim + ": '" + name + "' is reduced over " + dim + " inside the composite");
          continue dims;
        }
        if (role == ShardAnalysis.Role.WRITTEN_WHOLE && params.contains(name)) {
          refusals.add(dim + ": every part would write all of its output '" + name + "'");
          continue dims;
        }
      }
      Map<String, ShardAnalysis.Role> own = new HashMap<>();
      for (Param.Array a : op.arrays()) {
        ShardAnalysis.Role role = roles.get(a.name());
        if (role == null) {
          role = a.shape().extents().stream().anyMatch(x -> x.symbols().contains(dim)) ? ShardAnalysis.Role.ROWS : ShardAnalysis.Role.WHOLE;
        }
        if (role == ShardAnalysis.Role.WHOLE && a.role() != ArrayRole.IN) {
          refusals.add(dim + ": its output '" + a.name() + "' is not split along " + dim);
          continue dims;
        }
        own.put(a.name(), role);
      }
      // no @Reduce output of a kernel is left here (refused above): sums are added, the only operator a plan needs
      return new ShardReport.Operator(op.name(), "composite", plan(op, dim, offsets, own, Map.of(), work), refusals);
    }
    return new ShardReport.Operator(op.name(), "composite", null, refusals);
  }

  /** The sizes to try: those of the {@code @Parallel} loops, outermost first, then the other {@code @Dim}s. */
  private static List<String> candidates(OperatorIr op, List<GridDim> grid) {
    Set<String> out = new LinkedHashSet<>();
    Set<String> dims = op.dims().stream().map(Param::name).collect(Collectors.toSet());
    for (GridDim g : grid) {
      if (!g.derived() && dims.contains(g.extent().name())) {
        out.add(g.extent().name());
      }
    }
    op.dims().forEach(d -> out.add(d.name()));
    return new ArrayList<>(out);
  }

  private static Set<String> offsetsOf(Map<String, String> offsets, String dim) {
    return offsets.entrySet().stream().filter(e -> e.getValue().equals(dim)).map(Map.Entry::getKey).collect(Collectors.toSet());
  }

  private static ShardReport.Plan plan(OperatorIr op, String dim, Map<String, String> offsets,
      Map<String, ShardAnalysis.Role> arrays, Map<String, ReduceKind> reductions, Poly rowWork) {
    List<ShardReport.Role> roles = new ArrayList<>();
    Poly rowBytes = Poly.ZERO;
    Poly wholeBytes = Poly.ZERO;
    for (Param p : op.arguments()) {
      if (p instanceof Param.Scalar s) {
        String role = s.name().equals(dim) ? "shard-size"
            : dim.equals(offsets.get(s.name())) ? "offset"
            : s.dim() ? "size" : "scalar";
        roles.add(new ShardReport.Role(s.name(), role));
        continue;
      }
      Param.Array a = (Param.Array) p;
      ShardAnalysis.Role role = arrays.getOrDefault(a.name(), ShardAnalysis.Role.WHOLE);
      long bytes = a.elementType().bytes();
      switch (role) {
        case ROWS -> rowBytes = rowBytes.add(a.shape().stride(0).scale(bytes));
        default -> wholeBytes = wholeBytes.add(a.shape().length().scale(bytes));
      }
      ReduceKind kind = reductions.get(a.name());
      roles.add(new ShardReport.Role(a.name(), role.text,
          role == ShardAnalysis.Role.REDUCE && kind != null ? kind.symbol() : role == ShardAnalysis.Role.SUM ? "+" : null,
          a.role() == ArrayRole.IN ? "in" : a.role() == ArrayRole.REDUCE ? "reduce" : "out",
          a.elementType().javaName(), (role == ShardAnalysis.Role.ROWS ? a.shape().stride(0) : a.shape().length()).toString()));
    }
    return new ShardReport.Plan(dim, roles, rowBytes.toString(), rowWork.toString(), wholeBytes.toString());
  }
}
