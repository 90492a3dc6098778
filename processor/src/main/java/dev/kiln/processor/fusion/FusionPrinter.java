package dev.kiln.processor.fusion;

import dev.kiln.processor.ir.CompositeIr;
import dev.kiln.processor.ir.io.IrPrinter;
import dev.kiln.processor.ir.Param;
import java.util.ArrayList;
import java.util.List;

/** A composite as text: its calls (the DAG before fusion), then the kernels after fusion and the edges. */
public final class FusionPrinter {
  private FusionPrinter() {}

  /** The DAG before fusion: one line per temporary and per call. */
  public static String before(CompositeIr c) {
    StringBuilder b = new StringBuilder();
    b.append("composite ").append(c.name()).append('(');
    List<String> ps = new ArrayList<>();
    for (Param p : c.signature().params()) {
      ps.add(p instanceof Param.Array a ? a.role().text() + " " + a.name() + a.shape() : p.name());
    }
    b.append(String.join(", ", ps)).append(")\n");
    for (CompositeIr.Temp t : c.temps()) {
      b.append("  temp ").append(t.name()).append('[').append(t.length()).append("]\n");
    }
    for (CompositeIr.Call call : c.calls()) {
      List<String> args = new ArrayList<>();
      for (int i = 0; i < call.args().size(); i++) {
        Param p = call.callee().params().get(i);
        CompositeIr.Arg a = call.args().get(i);
        String v = a instanceof CompositeIr.Arg.Tensor t ? t.name()
            : a instanceof CompositeIr.Arg.Size s ? s.value().toString()
            : ((CompositeIr.Arg.Value) a).param() != null ? ((CompositeIr.Arg.Value) a).param().name()
            : String.valueOf(((CompositeIr.Arg.Value) a).literal());
        // an array the call writes says how: "out" (stored) or "reduce" (accumulated into)
        args.add(p instanceof Param.Array pa && pa.role() != dev.kiln.processor.ir.ArrayRole.IN ? pa.role().text() + " " + v : v);
      }
      b.append("  ").append(call.id()).append(" = ").append(call.callee().name()).append('(')
          .append(String.join(", ", args)).append(")\n");
    }
    return b.toString();
  }

  /** Before, then the kernels after fusion (each printed as IR), then every edge's decision. */
  public static String print(FusionPlan plan) {
    CompositeIr c = plan.composite();
    StringBuilder b = new StringBuilder(before(c));
    b.append("  fused into ").append(plan.kernels().size()).append(plan.kernels().size() == 1 ? " kernel" : " kernels");
    List<String> temps = new ArrayList<>();
    plan.allocated().forEach(t -> temps.add(t.name()));
    b.append("; temporaries allocated: ").append(temps.isEmpty() ? "none" : String.join(", ", temps)).append('\n');
    List<String> perWorker = new ArrayList<>();
    for (FusionPlan.Kernel k : plan.kernels()) {
      if (k.perWorker() != null) {
        k.perWorker().scratch().forEach(a -> perWorker.add(a.name() + a.shape()));
      }
    }
    if (!perWorker.isEmpty()) {
      b.append("  on the CPU each worker keeps its own part instead (not allocated): ").append(String.join(", ", perWorker))
          .append('\n');
    }
    for (FusionPlan.Edge e : plan.edges()) {
      b.append("  edge ").append(c.calls().get(e.from()).id()).append(" -> ").append(c.calls().get(e.to()).id())
          .append(" via ").append(e.tensor()).append(e.fused() ? ": fused, " : ": materialised, ").append(e.reason()).append('\n');
    }
    for (FusionPlan.Split split : plan.splits()) {
      b.append("  kernel ").append(plan.kernels().get(split.kernel()).ir().name()).append(" starts at ").append(c.calls().get(split.call()).id())
          .append(": it did not join the kernel before, ").append(split.reason()).append('\n');
    }
    for (FusionPlan.Kernel k : plan.kernels()) {
      List<String> ids = new ArrayList<>();
      k.calls().forEach(i -> ids.add(c.calls().get(i).id()));
      b.append("\n# kernel ").append(k.ir().name()).append(" fuses ").append(String.join(", ", ids)).append('\n');
      b.append(IrPrinter.print(k.ir()));
    }
    return b.toString();
  }
}
