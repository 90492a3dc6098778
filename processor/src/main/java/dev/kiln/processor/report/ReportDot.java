package dev.kiln.processor.report;

import dev.kiln.processor.report.Dag.EdgeStyle;
import dev.kiln.processor.report.Dag.Group;
import dev.kiln.processor.report.Dag.Line;
import dev.kiln.processor.report.Dag.Node;
import dev.kiln.processor.report.Dag.NodeStyle;
import dev.kiln.processor.report.FusionReport.Composite;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Graphviz DOT text for a composite, to render with {@code dot -Tsvg}.
 *
 * <p>{@link #before} draws every call (a box: id, operator, line) and every tensor (an ellipse;
 * inputs, outputs and temporaries in distinct styles), with edges call → tensor → call.
 * {@link #after} puts the calls of each kernel in a cluster named after the kernel; producer-consumer
 * edges carry their tensor as label, fused ones dashed green, materialised ones solid red with the
 * reason as tooltip; a temporary that fusion does not allocate is dotted. Node names are
 * {@code "call:<id>"} and {@code "tensor:<name>"}; every name and string is quoted and escaped.
 */
public final class ReportDot {
  private static final String FONT = "Helvetica";

  private final StringBuilder out = new StringBuilder();

  private ReportDot() {}

  /** The composite's operator DAG as written, one kernel per call. */
  public static String before(Composite composite) {
    return new ReportDot().graph(DagViews.before(composite));
  }

  /** The composite after fusion: one cluster per kernel. */
  public static String after(Composite composite) {
    return new ReportDot().graph(DagViews.after(composite));
  }

  private String graph(Dag dag) {
    out.append("digraph ").append(quote(dag.title())).append(" {\n");
    statement(1, "graph", List.of("label", dag.title(), "labelloc", "t", "fontname", FONT, "rankdir", "TB", "nodesep", "0.35"));
    statement(1, "node", List.of("fontname", FONT, "fontsize", "10"));
    statement(1, "edge", List.of("fontname", FONT, "fontsize", "9", "color", EdgeStyle.FLOW.color, "arrowsize", "0.7"));
    for (int g = 0; g < dag.groups().size(); g++) {
      Group group = dag.groups().get(g);
      out.append("  subgraph ").append(quote("cluster_" + g)).append(" {\n");
      statement(2, "graph", List.of("label", group.name() + (group.grid() == null ? "" : "\n" + group.grid()),
          "style", "rounded,filled", "color", Dag.GROUP_STROKE, "fillcolor", Dag.GROUP_FILL, "fontcolor", Dag.GROUP_TEXT));
      for (Node node : dag.nodes()) {
        if (node.group() == g) {
          node(2, node);
        }
      }
      out.append("  }\n");
    }
    for (Node node : dag.nodes()) {
      if (node.group() < 0 || node.group() >= dag.groups().size()) {
        node(1, node);
      }
    }
    for (Dag.Edge e : dag.edges()) {
      edge(e);
    }
    return out.append("}\n").toString();
  }

  private void node(int depth, Node node) {
    NodeStyle s = node.style();
    List<String> attributes = new ArrayList<>(List.of(
        "label", String.join("\n", node.lines()),
        "tooltip", node.tooltip(),
        "shape", s.isTensor() ? "ellipse" : "box",
        "style", (s.isTensor() ? "" : "rounded,") + "filled" + style(s.line),
        "fillcolor", s.fill,
        "color", s.stroke,
        "fontcolor", s.text));
    statement(depth, quote(node.key()), attributes);
  }

  private void edge(Dag.Edge e) {
    List<String> attributes = new ArrayList<>();
    if (!e.label().isEmpty()) {
      attributes.addAll(List.of("label", e.label()));
    }
    if (!e.tooltip().isEmpty()) {
      attributes.addAll(List.of("tooltip", e.tooltip(), "labeltooltip", e.tooltip()));
    }
    EdgeStyle s = e.style();
    if (s != EdgeStyle.FLOW) {
      attributes.addAll(List.of("style", s.line.name().toLowerCase(Locale.ROOT), "color", s.color, "fontcolor", s.color,
          "penwidth", String.valueOf(s.width)));
    }
    statement(1, quote(e.from()) + " -> " + quote(e.to()), attributes);
  }

  private static String style(Line line) {
    return line == Line.SOLID ? "" : "," + line.name().toLowerCase(Locale.ROOT);
  }

  /** {@code head [name="value", ...];}, attributes as name, value pairs. */
  private void statement(int depth, String head, List<String> attributes) {
    out.append("  ".repeat(depth)).append(head);
    if (!attributes.isEmpty()) {
      out.append(" [");
      for (int i = 0; i < attributes.size(); i += 2) {
        out.append(i == 0 ? "" : ", ").append(attributes.get(i)).append('=').append(quote(attributes.get(i + 1)));
      }
      out.append(']');
    }
    out.append(";\n");
  }

  /**
   * {@code text} as a DOT double-quoted string: quote and backslash escaped, a newline as the
   * label escape {@code \n}; other control characters, which DOT cannot carry, become U+FFFD.
   */
  static String quote(String text) {
    String s = text == null ? "" : text;
    StringBuilder b = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        b.append('\\').append(c);
      } else if (c == '\n') {
        b.append("\\n");
      } else if (c < 0x20 || c == 0x7f) {
        b.append('\uFFFD');
      } else {
        b.append(c);
      }
    }
    return b.append('"').toString();
  }
}
