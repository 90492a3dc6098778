package dev.kiln.processor.report;

import dev.kiln.processor.report.Dag.EdgeStyle;
import dev.kiln.processor.report.Dag.Group;
import dev.kiln.processor.report.Dag.Node;
import dev.kiln.processor.report.Dag.NodeStyle;
import dev.kiln.processor.report.FusionReport.CallNode;
import dev.kiln.processor.report.FusionReport.Composite;
import dev.kiln.processor.report.FusionReport.Edge;
import dev.kiln.processor.report.FusionReport.Kernel;
import dev.kiln.processor.report.FusionReport.Tensor;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Builds the two pictures of a composite. Before fusion: every call and every tensor, with edges
 * call → tensor → call. After fusion: the calls grouped by kernel, producer-consumer edges labelled
 * with their tensor (fused or materialised, the reason as tooltip), and the tensors the kernels
 * still read or write; a temporary that fusion does not allocate keeps its node, drawn as elided.
 *
 * <p>A call that two kernels both recompute gets one node per kernel; the first is the one that
 * writes its outputs. Ids the model names but does not define (an edge to an unknown call, a
 * tensor missing from the list) still get a node, so a faulty report is drawn rather than dropped.
 */
final class DagViews {
  private final Composite composite;
  private final Map<String, Node> nodes = new LinkedHashMap<>();
  private final List<Dag.Edge> edges = new ArrayList<>();
  private final Map<String, Tensor> tensors = new LinkedHashMap<>();
  private final List<Group> groups = new ArrayList<>();
  /** After fusion: per call id, its node in each kernel that holds it (-1: in none). */
  private final Map<String, Map<Integer, String>> copies = new LinkedHashMap<>();

  private DagViews(Composite composite) {
    this.composite = composite;
    for (Tensor t : composite.tensors()) {
      tensors.putIfAbsent(t.name(), t);
    }
  }

  static Dag before(Composite c) {
    DagViews v = new DagViews(c);
    for (CallNode call : c.calls()) {
      v.callNode(call.id(), -1);
    }
    v.tensorNodes(false);
    for (CallNode call : c.calls()) {
      String key = callKey(call.id());
      for (String t : call.reads()) {
        v.edge(v.tensorNode(t, false), key, "", EdgeStyle.FLOW, "");
      }
      for (String t : call.writes()) {
        v.edge(key, v.tensorNode(t, false), "", EdgeStyle.FLOW, "");
      }
    }
    return new Dag(Objects.toString(c.name(), "") + ": before fusion", List.copyOf(v.nodes.values()), v.edges, List.of());
  }

  static Dag after(Composite c) {
    DagViews v = new DagViews(c);
    v.kernelNodes();
    for (CallNode call : c.calls()) {
      v.copies(call.id());
    }
    v.tensorNodes(true);
    Set<String> delivered = new HashSet<>();
    for (Edge e : c.edges()) {
      delivered.add(e.to() + "\u0000" + e.tensor());
      v.producerConsumer(e);
    }
    for (CallNode call : c.calls()) {
      v.memoryTraffic(call, delivered);
    }
    return new Dag(Objects.toString(c.name(), "") + ": after fusion", List.copyOf(v.nodes.values()), v.edges, v.groups);
  }

  /** A group per kernel, and a node per call in each kernel that does its work. */
  private void kernelNodes() {
    for (Kernel k : composite.kernels()) {
      int g = groups.size();
      groups.add(new Group(k.name(), k.grid()));
      for (String id : k.fusedOps()) {
        Map<Integer, String> byGroup = copies.computeIfAbsent(id, x -> new LinkedHashMap<>());
        if (!byGroup.containsKey(g)) {
          byGroup.put(g, callNode(byGroup.isEmpty() ? callKey(id) : callKey(id) + "@" + g, g, id));
        }
      }
    }
  }

  /** The nodes of call {@code id}, by group; a call in no kernel gets one node outside them all. */
  private Map<Integer, String> copies(String id) {
    return copies.computeIfAbsent(id, x -> new LinkedHashMap<>(Map.of(-1, callNode(x, -1))));
  }

  /** The edge into each node of the consumer, from the producer's node in the same kernel where there is one. */
  private void producerConsumer(Edge e) {
    Map<Integer, String> producers = copies(e.from());
    tensorNode(e.tensor(), true);
    String reason = Objects.toString(e.reason(), "");
    String tooltip = reason.isEmpty() ? "" : e.tensor() + ": " + reason;
    for (Map.Entry<Integer, String> consumer : copies(e.to()).entrySet()) {
      String producer = producers.getOrDefault(consumer.getKey(), producers.values().iterator().next());
      edge(producer, consumer.getValue(), Objects.toString(e.tensor(), ""), e.fused() ? EdgeStyle.FUSED : EdgeStyle.MATERIALISED,
          tooltip);
    }
  }

  /** Reads no producer-consumer edge accounts for (inputs), and the call's writes, from its first node. */
  private void memoryTraffic(CallNode call, Set<String> delivered) {
    Map<Integer, String> mine = copies(call.id());
    for (String t : call.reads()) {
      if (!delivered.contains(call.id() + "\u0000" + t)) {
        String tensor = tensorNode(t, true);
        mine.values().forEach(key -> edge(tensor, key, "", EdgeStyle.FLOW, ""));
      }
    }
    String primary = mine.values().iterator().next();
    for (String t : call.writes()) {
      String tensor = tensorNode(t, true);
      EdgeStyle style = nodes.get(tensor).style() == NodeStyle.TEMP_ELIDED ? EdgeStyle.ELIDED_WRITE : EdgeStyle.FLOW;
      edge(primary, tensor, "", style, "");
    }
  }

  static String callKey(String id) {
    return "call:" + id;
  }

  static String tensorKey(String name) {
    return "tensor:" + name;
  }

  private String callNode(String id, int group) {
    return callNode(callKey(id), group, id);
  }

  private String callNode(String key, int group, String id) {
    if (!nodes.containsKey(key)) {
      CallNode call = composite.calls().stream().filter(n -> Objects.equals(n.id(), id)).findFirst().orElse(null);
      List<String> lines = new ArrayList<>(List.of(Objects.toString(id, "")));
      String tooltip = "call " + id;
      if (call != null) {
        lines.add(simpleName(call.operator()));
        tooltip = id + ": " + call.operator();
        if (call.line() > 0) {
          lines.add("line " + call.line());
          tooltip += " at line " + call.line();
        }
      } else {
        tooltip += " (not among the composite's calls)";
      }
      nodes.put(key, new Node(key, lines, NodeStyle.CALL, group, tooltip));
    }
    return key;
  }

  private void tensorNodes(boolean afterFusion) {
    for (String name : tensors.keySet()) {
      tensorNode(name, afterFusion);
    }
  }

  private String tensorNode(String name, boolean afterFusion) {
    String key = tensorKey(name);
    if (!nodes.containsKey(key)) {
      Tensor t = tensors.get(name);
      NodeStyle style = t == null ? NodeStyle.OTHER : style(t, afterFusion);
      String shape = t == null ? "" : Objects.toString(t.shape(), "");
      List<String> lines = shape.isEmpty() ? List.of(Objects.toString(name, "")) : List.of(Objects.toString(name, ""), shape);
      String what = name + (shape.isEmpty() ? "" : " " + shape) + ": " + describe(t, style);
      nodes.put(key, new Node(key, lines, style, -1, what));
    }
    return key;
  }

  private static NodeStyle style(Tensor t, boolean afterFusion) {
    switch (Objects.toString(t.kind(), "")) {
      case "in":
        return NodeStyle.INPUT;
      case "out":
        return NodeStyle.OUTPUT;
      case CompositeSummary.TEMP:
        return afterFusion && !t.allocated() ? NodeStyle.TEMP_ELIDED : NodeStyle.TEMP;
      default:
        return NodeStyle.OTHER;
    }
  }

  private static String describe(Tensor t, NodeStyle style) {
    switch (style) {
      case INPUT: return "input parameter";
      case OUTPUT: return "output parameter";
      case TEMP: return "temporary, allocated";
      case TEMP_ELIDED: return "temporary, not allocated (fused away)";
      default: return t == null ? "not among the composite's tensors" : "kind " + t.kind();
    }
  }

  private void edge(String from, String to, String label, EdgeStyle style, String tooltip) {
    edges.add(new Dag.Edge(from, to, label, style, tooltip));
  }

  static String simpleName(String operator) {
    String s = Objects.toString(operator, "?");
    return s.substring(s.lastIndexOf('.') + 1);
  }
}
