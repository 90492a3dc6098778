package dev.kiln.processor.report;

import dev.kiln.processor.report.Dag.EdgeStyle;
import dev.kiln.processor.report.Dag.Line;
import dev.kiln.processor.report.Dag.Node;
import dev.kiln.processor.report.DagLayout.Box;
import java.util.Locale;
import java.util.Map;

/**
 * Draws a {@link Dag} as inline SVG, laid out by {@link DagLayout}: kernels as rounded frames with
 * their name and grid, calls as rounded boxes, tensors as ellipses, edges as cubic curves routed by
 * {@link EdgeRouter}, with arrowheads and the tensor as label. Labels longer than
 * {@link DagLayout#MAX_CHARS} are cut; every element carries its full text as a {@code <title>} tooltip.
 */
final class SvgWriter {
  private static final String FONT = "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace";

  private final Markup out;
  private final Dag dag;
  private final DagLayout layout;
  private final String id;

  private SvgWriter(Markup out, Dag dag, String id) {
    this.out = out;
    this.dag = dag;
    this.layout = DagLayout.of(dag);
    this.id = id;
  }

  /**
   * Appends one {@code <svg>} element to {@code out}.
   *
   * @param id unique in the page: the prefix of the element ids (arrowhead markers) inside
   */
  static void draw(Markup out, Dag dag, String id) {
    new SvgWriter(out, dag, id).svg();
  }

  private void svg() {
    boolean empty = dag.nodes().isEmpty();
    int w = empty ? 240 : layout.width();
    int h = empty ? 48 : layout.height();
    out.open("svg", "class", "dag", "width", num(w), "height", num(h), "viewBox", "0 0 " + w + " " + h,
        "role", "img", "aria-label", dag.title(), "font-family", FONT, "font-size", "11").newline();
    if (empty) {
      out.element("text", "(no calls)", "x", "20", "y", "28", "fill", "#757575").newline();
      out.close("svg");
      return;
    }
    markers();
    for (int g = 0; g < dag.groups().size(); g++) {
      group(g);
    }
    Map<Dag.Edge, EdgeRouter.Route> routes = EdgeRouter.route(dag, layout);
    for (Dag.Edge e : dag.edges()) {
      if (routes.containsKey(e)) {
        edge(e, routes.get(e));
      }
    }
    for (Node node : dag.nodes()) {
      node(node);
    }
    out.close("svg");
  }

  private void markers() {
    out.open("defs");
    for (EdgeStyle s : EdgeStyle.values()) {
      out.open("marker", "id", marker(s), "viewBox", "0 0 10 10", "refX", "10", "refY", "5",
          "markerWidth", "7", "markerHeight", "7", "orient", "auto");
      out.leaf("path", "d", "M0,0 L10,5 L0,10 z", "fill", s.color).close("marker");
    }
    out.close("defs").newline();
  }

  private String marker(EdgeStyle s) {
    return id + "-arrow-" + s.name().toLowerCase(Locale.ROOT);
  }

  private void group(int g) {
    Box b = layout.groupBox(g);
    if (b == null) {
      return;
    }
    Dag.Group group = dag.groups().get(g);
    int chars = Math.min(DagLayout.MAX_TITLE_CHARS, Math.max(4, (b.w() - 2 * DagLayout.GROUP_PAD) / DagLayout.CHAR_WIDTH));
    String title = "kernel " + group.name() + (group.grid() == null ? "" : " over " + group.grid());
    out.open("g", "class", "kernel").element("title", title);
    out.leaf("rect", "x", num(b.x()), "y", num(b.y()), "width", num(b.w()), "height", num(b.h()), "rx", "12",
        "fill", Dag.GROUP_FILL, "stroke", Dag.GROUP_STROKE, "stroke-width", "1.5");
    int x = b.x() + DagLayout.GROUP_PAD;
    out.element("text", cut(group.name(), chars), "x", num(x), "y", num(b.y() + 16), "font-weight", "bold",
        "fill", Dag.GROUP_TEXT,
        "stroke", Dag.GROUP_FILL, "stroke-width", "3", "paint-order", "stroke");
    if (group.grid() != null) {
      out.element("text", cut(group.grid(), chars), "x", num(x), "y", num(b.y() + 28), "font-size", "10", "fill", Dag.GROUP_TEXT,
          "stroke", Dag.GROUP_FILL, "stroke-width", "3", "paint-order", "stroke");
    }
    out.close("g").newline();
  }

  private void edge(Dag.Edge e, EdgeRouter.Route route) {
    EdgeStyle s = e.style();
    out.open("g", "class", "edge " + s.name().toLowerCase(Locale.ROOT));
    if (!e.tooltip().isEmpty() || !e.label().isEmpty()) {
      out.element("title", e.tooltip().isEmpty() ? e.label() : e.tooltip());
    }
    out.leaf("path", "d", route.path(), "fill", "none", "stroke", s.color, "stroke-width", String.valueOf(s.width),
        "stroke-dasharray", dash(s.line), "marker-end", "url(#" + marker(s) + ")");
    if (!e.label().isEmpty()) {
      out.element("text", cut(e.label(), DagLayout.MAX_CHARS), "x", num(route.labelX()), "y", num(route.labelY() + 4),
          "text-anchor", "middle",
          "font-size", "10", "fill", s.color, "stroke", "#ffffff", "stroke-width", "3", "paint-order", "stroke");
    }
    out.close("g").newline();
  }

  private void node(Node node) {
    Box b = layout.box(node.key());
    Dag.NodeStyle s = node.style();
    out.open("g", "class", "node").element("title", node.tooltip());
    if (s.isTensor()) {
      out.leaf("ellipse", "cx", num(b.cx()), "cy", num(b.cy()), "rx", num(b.w() / 2), "ry", num(b.h() / 2),
          "fill", s.fill, "stroke", s.stroke, "stroke-width", "1.3", "stroke-dasharray", dash(s.line));
    } else {
      out.leaf("rect", "x", num(b.x()), "y", num(b.y()), "width", num(b.w()), "height", num(b.h()), "rx", "6",
          "fill", s.fill, "stroke", s.stroke, "stroke-width", "1.3", "stroke-dasharray", dash(s.line));
    }
    out.open("text", "text-anchor", "middle", "fill", s.text);
    int first = b.cy() - node.lines().size() * DagLayout.LINE_HEIGHT / 2 + 11;
    for (int k = 0; k < node.lines().size(); k++) {
      out.element("tspan", DagLayout.clip(node.lines().get(k)), "x", num(b.cx()), "y", num(first + k * DagLayout.LINE_HEIGHT),
          "font-weight", k == 0 && !s.isTensor() ? "bold" : null);
    }
    out.close("text").close("g").newline();
  }

  private static String dash(Line line) {
    switch (line) {
      case DASHED: return "6 4";
      case DOTTED: return "2 3";
      default: return null;
    }
  }

  private static String cut(String text, int chars) {
    String s = text == null ? "" : text;
    return s.length() <= chars ? s : s.substring(0, chars - 1) + "\u2026";
  }

  private static String num(int value) {
    return Integer.toString(value);
  }
}
