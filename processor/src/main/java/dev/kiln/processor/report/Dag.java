package dev.kiln.processor.report;

import java.util.List;

/**
 * One picture of a composite, before or after fusion, as the DOT and SVG writers both draw it:
 * nodes (calls and tensors), edges, and groups (kernels) that hold some of the calls.
 *
 * @param title what the picture shows, e.g. {@code "lstmStep: after fusion"}
 */
record Dag(String title, List<Node> nodes, List<Edge> edges, List<Group> groups) {
  Dag {
    nodes = List.copyOf(nodes);
    edges = List.copyOf(edges);
    groups = List.copyOf(groups);
  }

  /** A stroke pattern, as both writers spell it. */
  enum Line { SOLID, DASHED, DOTTED }

  /** How a node is drawn: calls are boxes, tensors ellipses; colours for a light background. */
  enum NodeStyle {
    CALL("#e3f2fd", "#1565c0", Line.SOLID, "#0d2a4a"),
    INPUT("#fff8e1", "#ef8f00", Line.SOLID, "#212121"),
    OUTPUT("#fce4ec", "#ad1457", Line.SOLID, "#212121"),
    TEMP("#ffffff", "#616161", Line.DASHED, "#212121"),
    TEMP_ELIDED("#fafafa", "#9e9e9e", Line.DOTTED, "#757575"),
    OTHER("#eeeeee", "#757575", Line.SOLID, "#212121");

    final String fill;
    final String stroke;
    final Line line;
    final String text;

    NodeStyle(String fill, String stroke, Line line, String text) {
      this.fill = fill;
      this.stroke = stroke;
      this.line = line;
      this.text = text;
    }

    boolean isTensor() {
      return this != CALL;
    }
  }

  /** How an edge is drawn. */
  enum EdgeStyle {
    /** A read or write of memory, or any edge before fusion. */
    FLOW("#78909c", Line.SOLID, 1.3),
    /** A write into a temporary that fusion does not allocate. */
    ELIDED_WRITE("#9e9e9e", Line.DOTTED, 1.3),
    /** A producer-consumer edge inside one kernel. */
    FUSED("#2e7d32", Line.DASHED, 1.8),
    /** A producer-consumer edge through memory, between kernels. */
    MATERIALISED("#c62828", Line.SOLID, 2.2);

    final String color;
    final Line line;
    final double width;

    EdgeStyle(String color, Line line, double width) {
      this.color = color;
      this.line = line;
      this.width = width;
    }
  }

  /** The frame of a kernel: fill, stroke and title colours. */
  static final String GROUP_FILL = "#f1f8e9";
  static final String GROUP_STROKE = "#7cb342";
  static final String GROUP_TEXT = "#33691e";

  /**
   * @param key unique in the picture: {@code "call:<id>"} or {@code "tensor:<name>"}
   * @param lines the label, one entry per line
   * @param group the index in {@link Dag#groups()} of the kernel that holds it, -1 for none
   * @param tooltip the full text shown on hover
   */
  record Node(String key, List<String> lines, NodeStyle style, int group, String tooltip) {
    Node {
      lines = List.copyOf(lines);
    }
  }

  /** @param label drawn beside the edge, may be empty; {@code tooltip} likewise */
  record Edge(String from, String to, String label, EdgeStyle style, String tooltip) {}

  /** A kernel: its name and the worker grid as the label. */
  record Group(String name, String grid) {}
}
