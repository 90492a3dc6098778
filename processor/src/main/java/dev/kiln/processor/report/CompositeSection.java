package dev.kiln.processor.report;

import dev.kiln.processor.report.FusionReport.Composite;
import dev.kiln.processor.report.FusionReport.Edge;
import dev.kiln.processor.report.FusionReport.Kernel;
import java.util.List;
import java.util.Objects;

/** One composite's section of the HTML page: summary, both pictures, kernels, edges, DOT text. */
final class CompositeSection {
  private final Markup out;
  private final Composite composite;
  private final ShardReport.Operator shard;
  private final String anchor;

  private CompositeSection(Markup out, Composite composite, ShardReport.Operator shard, String anchor) {
    this.out = out;
    this.composite = composite;
    this.shard = shard;
    this.anchor = anchor;
  }

  /**
   * @param shard the composite's shard plan, or null
   * @param anchor the section's element id, unique in the page; also prefixes the ids inside
   */
  static void write(Markup out, Composite composite, ShardReport.Operator shard, String anchor) {
    new CompositeSection(out, composite, shard, anchor).section();
  }

  private void section() {
    out.open("section", "class", "composite", "id", anchor).newline();
    out.open("h2").element("code", composite.name()).close("h2").newline();
    if (composite.gradientOf() != null) {
      out.open("p", "class", "muted").text("Backward pass (derived gradient) of ").element("code", composite.gradientOf())
          .text(".").close("p").newline();
    }
    summary(CompositeSummary.of(composite));
    Dag before = DagViews.before(composite);
    Dag after = DagViews.after(composite);
    out.open("div", "class", "views").newline();
    figure("Before fusion: " + ReportHtml.count(composite.calls().size(), "call") + ", one kernel each", before, "before");
    figure("After fusion: " + ReportHtml.count(composite.kernels().size(), "kernel"), after, "after");
    out.close("div").newline();
    kernels();
    edges();
    out.open("details").newline().element("summary", "Graphviz DOT of both pictures").newline();
    out.open("p", "class", "muted").text("Render with ").element("code", "dot -Tsvg before.dot -o before.svg").text(".")
        .close("p").newline();
    out.element("h3", "Before fusion").newline().element("pre", ReportDot.before(composite)).newline();
    out.element("h3", "After fusion").newline().element("pre", ReportDot.after(composite)).newline();
    out.close("details").newline();
    out.close("section").newline();
  }

  private void summary(CompositeSummary s) {
    out.open("table", "class", "summary").newline();
    row("Kernels", s.calls() + " \u2192 " + s.kernels() + " (one per call without fusion \u2192 after fusion)");
    row("Temporaries", s.temporaries() + ": " + s.allocatedTemporaries() + " allocated, " + s.elidedTemporaries() + " elided");
    row("Edges", s.fusedEdges() + " fused, " + s.materialisedEdges() + " materialised");
    if (shard != null) {
      row("Sharding", shard.plan() != null
          ? "splits along " + shard.plan().dim() + " (each part its rows: kiln-spark)"
          : "does not split: " + String.join("; ", shard.refusals()));
    }
    out.close("table").newline();
  }

  private void row(String name, String value) {
    out.open("tr").element("th", name).element("td", value).close("tr").newline();
  }

  private void figure(String caption, Dag dag, String view) {
    out.open("figure").element("figcaption", caption).open("div", "class", "scroll").newline();
    SvgWriter.draw(out, dag, anchor + "-" + view);
    out.close("div").close("figure").newline();
  }

  private void kernels() {
    out.element("h3", "Kernels").newline();
    if (composite.kernels().isEmpty()) {
      out.element("p", "No kernels.", "class", "muted").newline();
      return;
    }
    out.open("table").newline();
    header("Kernel", "Grid", "Fused calls", "Reads", "Writes");
    for (Kernel k : composite.kernels()) {
      out.open("tr").open("td").element("code", k.name()).close("td").element("td", k.grid());
      names(k.fusedOps());
      names(k.reads());
      names(k.writes());
      out.close("tr").newline();
    }
    out.close("table").newline();
    for (Kernel k : composite.kernels()) {
      if (k.split() != null) {
        out.element("p", k.name() + " starts a new kernel: " + k.split(), "class", "split").newline();
      }
    }
  }

  private void edges() {
    out.element("h3", "Edges").newline();
    if (composite.edges().isEmpty()) {
      out.element("p", "No producer-consumer edges.", "class", "muted").newline();
      return;
    }
    out.open("table", "class", "edges").newline();
    header("From", "To", "Tensor", "Fused", "Reason");
    for (Edge e : composite.edges()) {
      out.open("tr");
      names(List.of(e.from()));
      names(List.of(e.to()));
      out.open("td");
      name(e.tensor(), true);
      out.close("td")
          .element("td", e.fused() ? "yes" : "no", "class", e.fused() ? "yes" : "no")
          .element("td", Objects.toString(e.reason(), "")).close("tr").newline();
    }
    out.close("table").newline();
  }

  private void header(String... names) {
    out.open("tr");
    for (String name : names) {
      out.element("th", name);
    }
    out.close("tr").newline();
  }

  /** A table cell of names, comma-separated, each as {@link #name} writes it. */
  private void names(List<String> items) {
    out.open("td");
    for (int i = 0; i < items.size(); i++) {
      if (i > 0) {
        out.text(", ");
      }
      name(items.get(i), false);
    }
    out.close("td");
  }

  /**
   * A name: the user's as it is; one Kiln made up as its readable form, with the name itself shown
   * instead when the page's "internal names" box is ticked (CSS only: the page has no script).
   */
  private void name(String name, boolean code) {
    if (!ReadableNames.internal(name)) {
      if (code) {
        out.element("code", name);
      } else {
        out.text(name);
      }
      return;
    }
    out.element("span", ReadableNames.of(name), "class", "readable", "title", name);
    out.element("code", name, "class", "internal");
  }
}
