package dev.kiln.processor.fusion;

import dev.kiln.processor.ir.ArrayRole;
import dev.kiln.processor.ir.CompositeIr;
import dev.kiln.processor.ir.GridDim;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.report.FusionReport;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The fusion report's model from the merger's plans. */
public final class ReportBuilder {
  private ReportBuilder() {}

  public static FusionReport of(String owner, List<FusionPlan> plans) {
    return of(owner, plans, java.util.Map.of(), java.util.Map.of());
  }

  /**
   * The report of forward composites and backward passes.
   *
   * @param gradientOf for each backward pass's name, the operator it is the gradient of
   * @param gemmLeaves for each kernel lowered to library matrix products, why (the contraction pass)
   */
  public static FusionReport of(String owner, List<FusionPlan> plans, java.util.Map<String, String> gradientOf,
      java.util.Map<String, String> gemmLeaves) {
    List<FusionReport.Composite> out = new ArrayList<>();
    for (FusionPlan p : plans) {
      out.add(composite(p, gradientOf.get(p.composite().name()), gemmLeaves));
    }
    return new FusionReport(owner, out);
  }

  private static FusionReport.Composite composite(FusionPlan plan, String gradientOf, java.util.Map<String, String> gemmLeaves) {
    CompositeIr c = plan.composite();
    List<FusionReport.CallNode> calls = new ArrayList<>();
    for (CompositeIr.Call call : c.calls()) {
      List<String> reads = new ArrayList<>();
      List<String> writes = new ArrayList<>();
      for (int i = 0; i < call.args().size(); i++) {
        if (call.args().get(i) instanceof CompositeIr.Arg.Tensor t) {
          (((Param.Array) call.callee().params().get(i)).role() == ArrayRole.IN ? reads : writes).add(t.name());
        }
      }
      calls.add(new FusionReport.CallNode(call.id(), call.callee().owner() + "." + call.callee().name(), call.line(), reads, writes));
    }
    List<FusionReport.Tensor> tensors = new ArrayList<>();
    for (Param.Array a : c.signature().arrays()) {
      tensors.add(new FusionReport.Tensor(a.name(), a.role() == ArrayRole.IN ? "in" : "out", a.shape().toString(), true, false));
    }
    Set<String> allocated = new HashSet<>();
    plan.allocated().forEach(t -> allocated.add(t.name()));
    for (CompositeIr.Temp t : c.temps()) {
      tensors.add(new FusionReport.Tensor(t.name(), "temp", "[" + t.length() + "]", allocated.contains(t.name()),
          plan.perWorkerTemps().contains(t.name())));
    }
    List<FusionReport.Kernel> kernels = new ArrayList<>();
    for (int index = 0; index < plan.kernels().size(); index++) {
      FusionPlan.Kernel k = plan.kernels().get(index);
      List<String> fused = new ArrayList<>();
      k.calls().forEach(i -> fused.add(c.calls().get(i).id()));
      List<String> reads = new ArrayList<>();
      List<String> writes = new ArrayList<>();
      for (Param.Array a : k.ir().arrays()) {
        (a.role() == ArrayRole.IN ? reads : writes).add(a.name());
      }
      String leaf = gemmLeaves.get(k.ir().name());
      String split = null;
      for (FusionPlan.Split s : plan.splits()) {
        if (s.kernel() == index) {
          split = c.calls().get(s.call()).id() + " did not join the kernel before: " + s.reason();
        }
      }
      kernels.add(new FusionReport.Kernel(k.ir().name(), fused, grid(k.ir()), reads, writes, leaf == null ? null : "gemm", leaf,
          split));
    }
    List<FusionReport.Edge> edges = new ArrayList<>();
    for (FusionPlan.Edge e : plan.edges()) {
      edges.add(new FusionReport.Edge(c.calls().get(e.from()).id(), c.calls().get(e.to()).id(), e.tensor(), e.fused(), e.reason()));
    }
    return new FusionReport.Composite(c.name(), calls, tensors, kernels, edges, gradientOf);
  }

  static String grid(OperatorIr.Grid k) {
    StringBuilder b = new StringBuilder("[");
    for (GridDim g : k.grid()) {
      b.append(b.length() == 1 ? "" : ", ").append(g.var().name()).append(" < ").append(g.bound());
    }
    return b.append(']').toString();
  }
}
