package dev.kiln.processor.report;

import dev.kiln.processor.report.Dag.EdgeStyle;
import dev.kiln.processor.report.Dag.Line;
import dev.kiln.processor.report.Dag.NodeStyle;
import dev.kiln.processor.report.FusionReport.Composite;
import java.util.List;
import java.util.Locale;

/**
 * Writes a {@link FusionReport} as one standalone HTML page: no script, no external style sheet,
 * font or image, so it opens from a jar or a file with nothing else. Per composite operator: a
 * summary (kernels before and after fusion, temporaries allocated and elided), the operator DAG
 * before and after fusion as inline SVG laid out here, the kernels, the edges with whether they
 * fused and why, and the Graphviz DOT text of both pictures in a collapsible block.
 *
 * <p>The markup is HTML5 that is also well-formed XML once the doctype line is dropped; all text is
 * escaped.
 */
public final class ReportHtml {
  private static final String CSS = """
      body { font: 14px/1.45 system-ui, -apple-system, Segoe UI, Roboto, Helvetica, Arial, sans-serif;
             color: #212121; background: #ffffff; max-width: 1400px; margin: 24px auto; padding: 0 16px; }
      code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; }
      h1 { font-size: 22px; margin-bottom: 4px; }
      h2 { font-size: 18px; margin: 8px 0; }
      h2 code { font-size: inherit; }
      h3 { font-size: 15px; margin: 18px 0 6px; }
      section.composite { border-top: 2px solid #e0e0e0; margin-top: 28px; padding-top: 8px; }
      .muted { color: #616161; }
      .legend span { display: inline-block; margin: 2px 16px 2px 0; }
      .swatch { display: inline-block; width: 26px; height: 0; vertical-align: middle; margin-right: 6px; border-top: 2px solid; }
      .node { display: inline-block; width: 22px; height: 12px; vertical-align: middle; margin-right: 6px; border: 1.5px solid; }
      .views { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
      figure { margin: 0; flex: 0 1 auto; max-width: 100%; box-sizing: border-box;
               border: 1px solid #e0e0e0; border-radius: 8px; padding: 8px; background: #fcfcfc; }
      figcaption { font-weight: 600; margin-bottom: 6px; }
      .scroll { overflow: auto; }
      svg.dag { display: block; }
      table { border-collapse: collapse; margin: 6px 0; }
      th, td { border: 1px solid #e0e0e0; padding: 4px 8px; text-align: left; vertical-align: top; }
      th { background: #f5f5f5; font-weight: 600; }
      td.yes { color: #2e7d32; font-weight: 600; }
      td.no { color: #c62828; font-weight: 600; }
      details { margin: 14px 0; }
      summary { cursor: pointer; color: #1565c0; }
      .internal { display: none; }
      #internal-names:checked ~ section .internal { display: inline; }
      #internal-names:checked ~ section .readable { display: none; }
      .toggle { margin: 8px 0; }
      pre { background: #f7f7f7; border: 1px solid #e0e0e0; border-radius: 6px; padding: 8px; overflow: auto; }
      """;

  private ReportHtml() {}

  /** The page for the report. */
  public static String write(FusionReport report) {
    Markup out = new Markup().doctype();
    out.open("html", "lang", "en").newline().open("head").newline();
    out.leaf("meta", "charset", "utf-8").newline();
    out.leaf("meta", "name", "viewport", "content", "width=device-width, initial-scale=1").newline();
    out.element("title", "Kiln fusion report: " + report.owner()).newline();
    out.open("style").rawText(CSS).close("style").newline();
    out.close("head").newline().open("body").newline();
    out.element("h1", "Kiln fusion report").newline();
    out.open("p", "class", "muted").element("code", report.owner())
        .text(" \u00b7 " + count(report.operators().size(), "composite operator")).close("p").newline();
    if (report.operators().isEmpty()) {
      out.element("p", "This class has no composite operators, so nothing was fused.").newline();
    } else {
      legend(out);
      contents(out, report.operators());
      // a checkbox before the sections: the CSS above shows Kiln's own names in its place when ticked
      out.leaf("input", "type", "checkbox", "id", "internal-names").text(" ");
      out.open("label", "for", "internal-names", "class", "toggle")
          .text("Show the names Kiln gives a backward pass's tensors and calls (adj$x$1, softmax$adjoint#1)"
              + " instead of readable ones (\u2202x, part 1; adjoint of softmax)")
          .close("label").newline();
      for (int i = 0; i < report.operators().size(); i++) {
        CompositeSection.write(out, report.operators().get(i), report.shards().get(report.operators().get(i).name()), "op-" + i);
      }
    }
    out.element("p", "Written by the Kiln annotation processor.", "class", "muted").newline();
    return out.close("body").newline().close("html").newline().finish();
  }

  private static void legend(Markup out) {
    out.open("p", "class", "legend");
    nodeSwatch(out, NodeStyle.CALL, "call");
    nodeSwatch(out, NodeStyle.INPUT, "input");
    nodeSwatch(out, NodeStyle.OUTPUT, "output");
    nodeSwatch(out, NodeStyle.TEMP, "temporary");
    nodeSwatch(out, NodeStyle.TEMP_ELIDED, "temporary, not allocated");
    edgeSwatch(out, EdgeStyle.FUSED, "fused edge");
    edgeSwatch(out, EdgeStyle.MATERIALISED, "materialised edge (hover for the reason)");
    out.close("p").newline();
  }

  private static void nodeSwatch(Markup out, NodeStyle s, String text) {
    swatch(out, "node", "background: " + s.fill + "; border-color: " + s.stroke + "; border-style: " + css(s.line)
        + "; border-radius: " + (s.isTensor() ? "50%" : "3px"), text);
  }

  private static void edgeSwatch(Markup out, EdgeStyle s, String text) {
    swatch(out, "swatch", "border-color: " + s.color + "; border-top-style: " + css(s.line), text);
  }

  private static String css(Line line) {
    return line.name().toLowerCase(Locale.ROOT);
  }

  private static void swatch(Markup out, String kind, String style, String text) {
    out.open("span").element("span", "", "class", kind, "style", style).text(text).close("span");
  }

  private static void contents(Markup out, List<Composite> composites) {
    if (composites.size() < 2) {
      return;
    }
    out.open("ul").newline();
    for (int i = 0; i < composites.size(); i++) {
      CompositeSummary s = CompositeSummary.of(composites.get(i));
      out.open("li").open("a", "href", "#op-" + i).element("code", composites.get(i).name()).close("a")
          .text(": " + s.calls() + " \u2192 " + count(s.kernels(), "kernel")
              + (composites.get(i).gradientOf() == null ? "" : " (backward pass of " + composites.get(i).gradientOf() + ")"))
          .close("li").newline();
    }
    out.close("ul").newline();
  }

  static String count(int n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }
}
