package dev.kiln.processor.report;

import dev.kiln.processor.report.FusionReport.CallNode;
import dev.kiln.processor.report.FusionReport.Composite;
import dev.kiln.processor.report.FusionReport.Edge;
import dev.kiln.processor.report.FusionReport.Kernel;
import dev.kiln.processor.report.FusionReport.Tensor;

/**
 * Writes a {@link FusionReport} as the JSON resource {@code META-INF/kiln/<package>/<Class>.fusion.json}.
 *
 * <p>The text is deterministic (members and elements in model order), pretty-printed with a
 * two-space indent and UTF-8 safe. Shape, version 1:
 *
 * <pre>{@code
 * {"version": 1, "owner": "a.b.C", "operators": [
 *   {"name", "pass" ("forward" or "backward"), "gradientOf" (backward only), "kernelCount", "callCount", "temporaryCount", "allocatedTemporaryCount",
 *    "calls":   [{"id", "operator", "line", "reads": [..], "writes": [..]}],
 *    "tensors": [{"name", "kind", "shape", "allocated", "perWorkerOnCpu"}],
 *    "kernels": [{"name", "fusedOps": [..], "grid", "reads": [..], "writes": [..],
 *                 "leaf": "gemm" and "leafReason" (only for a kernel whose products are library GEMMs),
 *                 "split" (a kernel after the first: which call starts it and why it did not join the kernel before)}],
 *    "edges":   [{"from", "to", "tensor", "fused", "reason"}]}]}
 * }</pre>
 *
 * A string the model leaves null is written as {@code null}.
 */
public final class ReportJson {
  /** The format's version, the top-level {@code "version"}; raised when a member changes meaning or goes away. */
  public static final int VERSION = 1;

  private final JsonWriter json = new JsonWriter();
  private final FusionReport report;

  private ReportJson(FusionReport report) {
    this.report = report;
  }

  /** The report as JSON text, ending with a newline. */
  public static String write(FusionReport report) {
    ReportJson w = new ReportJson(report);
    w.json.beginObject()
        .field("version", VERSION)
        .field("owner", report.owner())
        .beginArray("operators");
    for (Composite c : report.operators()) {
      w.composite(c);
    }
    return w.json.endArray().endObject().finish();
  }

  private void composite(Composite c) {
    CompositeSummary s = CompositeSummary.of(c);
    json.beginObject()
        .field("name", c.name())
        .field("pass", c.gradientOf() == null ? "forward" : "backward");
    if (c.gradientOf() != null) {
      json.field("gradientOf", c.gradientOf());
    }
    json.field("kernelCount", s.kernels())
        .field("callCount", s.calls())
        .field("temporaryCount", s.temporaries())
        .field("allocatedTemporaryCount", s.allocatedTemporaries());
    ShardReport.Operator shard = report.shards().get(c.name());
    if (shard != null) {
      json.beginObject("shard");
      if (shard.plan() != null) {
        json.field("dim", shard.plan().dim());
      }
      json.field("refusals", shard.refusals()).endObject();
    }
    json.beginArray("calls");
    for (CallNode call : c.calls()) {
      json.beginObject()
          .field("id", call.id())
          .field("operator", call.operator())
          .field("line", call.line())
          .field("reads", call.reads())
          .field("writes", call.writes())
          .endObject();
    }
    json.endArray().beginArray("tensors");
    for (Tensor t : c.tensors()) {
      json.beginObject()
          .field("name", t.name())
          .field("kind", t.kind())
          .field("shape", t.shape())
          .field("allocated", t.allocated())
          .field("perWorkerOnCpu", t.perWorkerOnCpu())
          .endObject();
    }
    json.endArray().beginArray("kernels");
    for (Kernel k : c.kernels()) {
      json.beginObject()
          .field("name", k.name())
          .field("fusedOps", k.fusedOps())
          .field("grid", k.grid())
          .field("reads", k.reads())
          .field("writes", k.writes());
      if (k.leaf() != null) {
        json.field("leaf", k.leaf()).field("leafReason", k.leafReason());
      }
      if (k.split() != null) {
        json.field("split", k.split());
      }
      json.endObject();
    }
    json.endArray().beginArray("edges");
    for (Edge e : c.edges()) {
      json.beginObject()
          .field("from", e.from())
          .field("to", e.to())
          .field("tensor", e.tensor())
          .field("fused", e.fused())
          .field("reason", e.reason())
          .endObject();
    }
    json.endArray().endObject();
  }
}
