package dev.kiln.processor.report;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kiln.processor.report.FusionReport.CallNode;
import dev.kiln.processor.report.FusionReport.Composite;
import dev.kiln.processor.report.FusionReport.Tensor;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The DOT text: read back with a strict reader of the subset written; every node, edge and cluster checked. */
class ReportDotTest {
  private static long readsAndWrites(Composite c) {
    return c.calls().stream().mapToLong(n -> n.reads().size() + n.writes().size()).sum();
  }

  @Test
  void beforeHasEveryCallAndTensorAndEdgesThroughTensors() {
    Composite lstm = Fixtures.lstm();
    DotChecker dot = DotChecker.parse(ReportDot.before(lstm));
    assertThat(dot.name).isEqualTo("lstmStep: before fusion");
    assertThat(dot.clusters).isEmpty();
    for (CallNode call : lstm.calls()) {
      DotChecker.Node node = dot.nodes.get("call:" + call.id());
      assertThat(node).isNotNull();
      assertThat(node.attributes()).containsEntry("shape", "box");
    }
    for (Tensor t : lstm.tensors()) {
      DotChecker.Node node = dot.nodes.get("tensor:" + t.name());
      assertThat(node).isNotNull();
      assertThat(node.attributes()).containsEntry("shape", "ellipse");
    }
    assertThat(dot.nodes).hasSize(22);
    assertThat(dot.nodes.get("call:cellUpdate#8").attributes()).containsEntry("label", "cellUpdate#8\ncellUpdate\nline 29");
    assertThat(dot.nodes.get("tensor:gates").attributes()).containsEntry("label", "gates\n[B, 4*H]");
    String inputStyle = dot.nodes.get("tensor:gates").attributes().get("style");
    String tempStyle = dot.nodes.get("tensor:si").attributes().get("style");
    assertThat(tempStyle).contains("dashed");
    assertThat(inputStyle).isNotEqualTo(tempStyle);
    assertThat(dot.edges).hasSize((int) readsAndWrites(lstm));
    for (DotChecker.Edge e : dot.edges) {
      assertThat(e.from().startsWith("call:") ^ e.to().startsWith("call:")).isTrue();
    }
    assertThat(dot.edges.stream().anyMatch(e -> e.from().equals("tensor:c") && e.to().equals("call:cellUpdate#8"))).isTrue();
    assertThat(dot.edges.stream().anyMatch(e -> e.from().equals("call:cellUpdate#8") && e.to().equals("tensor:cNext"))).isTrue();
  }

  @Test
  void afterPutsTheLstmInOneClusterWithFusedEdgesAndDottedTemporaries() {
    Composite lstm = Fixtures.lstm();
    DotChecker dot = DotChecker.parse(ReportDot.after(lstm));
    assertThat(dot.clusters.keySet()).containsExactly("cluster_0");
    assertThat(dot.clusters.get("cluster_0")).containsEntry("label", "lstmStep_k0\n[b < B, h < H]");
    for (CallNode call : lstm.calls()) {
      assertThat(dot.nodes.get("call:" + call.id()).cluster()).isEqualTo("cluster_0");
    }
    for (String temp : List.of("i", "f", "j", "o", "si", "sf", "tj", "so")) {
      assertThat(dot.nodes.get("tensor:" + temp).attributes().get("style")).contains("dotted");
      assertThat(dot.nodes.get("tensor:" + temp).cluster()).isNull();
    }
    List<DotChecker.Edge> callToCall = dot.edges.stream()
        .filter(e -> e.from().startsWith("call:") && e.to().startsWith("call:")).toList();
    assertThat(callToCall).hasSize(9);
    for (DotChecker.Edge e : callToCall) {
      assertThat(e.attributes()).containsEntry("style", "dashed");
      assertThat(e.attributes()).containsEntry("color", Dag.EdgeStyle.FUSED.color);
      assertThat(e.attributes().get("label")).isNotEmpty();
    }
    assertThat(dot.edges.stream().anyMatch(e -> e.from().equals("call:cellUpdate#8") && e.to().equals("call:hidden#9")
        && e.attributes().get("label").equals("cNext"))).isTrue();
    assertThat(dot.edges.stream().noneMatch(e -> Dag.EdgeStyle.MATERIALISED.color.equals(e.attributes().get("color")))).isTrue();
  }

  @Test
  void afterMarksSoftmaxsOneMaterialisedEdgeRedWithItsReason() {
    Composite softmax = Fixtures.softmax();
    String text = ReportDot.after(softmax);
    DotChecker dot = DotChecker.parse(text);
    assertThat(dot.clusters.keySet()).containsExactly("cluster_0", "cluster_1").inOrder();
    assertThat(dot.clusters.get("cluster_1").get("label")).startsWith("softmax_k1\n");
    assertThat(dot.nodes.get("call:max#0").cluster()).isEqualTo("cluster_0");
    for (String id : List.of("exp#1", "sum#2", "div#3")) {
      assertThat(dot.nodes.get("call:" + id).cluster()).isEqualTo("cluster_1");
    }
    List<DotChecker.Edge> red = dot.edges.stream()
        .filter(e -> Dag.EdgeStyle.MATERIALISED.color.equals(e.attributes().get("color"))).toList();
    assertThat(red).hasSize(1);
    assertThat(red.get(0).from()).isEqualTo("call:max#0");
    assertThat(red.get(0).to()).isEqualTo("call:exp#1");
    assertThat(red.get(0).attributes()).containsEntry("style", "solid");
    assertThat(red.get(0).attributes()).containsEntry("label", "m");
    assertThat(red.get(0).attributes()).containsEntry("tooltip", "m: " + Fixtures.REASON);
    assertThat(text).contains("reduction \\\"max#0\\\" must finish");
    assertThat(dot.nodes.get("tensor:m").attributes().get("style")).doesNotContain("dotted");
    assertThat(dot.nodes.get("tensor:e").attributes().get("style")).contains("dotted");
    // x reaches max#0 and exp#1 from memory; e and s reach their readers through fused edges only
    assertThat(dot.edges.stream().filter(e -> e.from().equals("tensor:x")).count()).isEqualTo(2);
    assertThat(dot.edges.stream().noneMatch(e -> e.from().equals("tensor:e") || e.from().equals("tensor:s"))).isTrue();
  }

  @Test
  void aCallRecomputedInTwoKernelsGetsANodeInEach() {
    Composite c = new Composite("twice",
        List.of(new CallNode("scale#0", "p.Ops.scale", 1, List.of("x"), List.of("t")),
            new CallNode("sum#1", "p.Ops.rowSum", 2, List.of("t"), List.of("s")),
            new CallNode("div#2", "p.Ops.div", 3, List.of("t", "s"), List.of("y"))),
        List.of(new Tensor("x", "in", "[N, C]", false), new Tensor("y", "out", "[N, C]", false),
            new Tensor("t", "temp", "[N, C]", false), new Tensor("s", "temp", "[N]", true)),
        List.of(new FusionReport.Kernel("k0", List.of("scale#0", "sum#1"), "[n < N]", List.of("x"), List.of("s")),
            new FusionReport.Kernel("k1", List.of("scale#0", "div#2"), "[n < N, c < C]", List.of("x", "s"), List.of("y"))),
        List.of(new FusionReport.Edge("scale#0", "sum#1", "t", true, "prologue"),
            new FusionReport.Edge("scale#0", "div#2", "t", true, "recomputed: cheap"),
            new FusionReport.Edge("sum#1", "div#2", "s", false, "a reduction finishes first")));
    DotChecker dot = DotChecker.parse(ReportDot.after(c));
    assertThat(dot.nodes.get("call:scale#0").cluster()).isEqualTo("cluster_0");
    assertThat(dot.nodes.get("call:scale#0@1").cluster()).isEqualTo("cluster_1");
    assertThat(dot.edges.stream().anyMatch(e -> e.from().equals("call:scale#0@1") && e.to().equals("call:div#2"))).isTrue();
    assertThat(dot.edges.stream().filter(e -> e.from().equals("tensor:x")).map(DotChecker.Edge::to).toList())
        .containsExactly("call:scale#0", "call:scale#0@1");
    assertThat(dot.edges.stream().filter(e -> e.to().equals("tensor:t")).map(DotChecker.Edge::from).toList())
        .containsExactly("call:scale#0");
  }

  /** Names no Java identifier has, to show that quoting and escaping hold. */
  private static Composite awkward() {
    return new Composite("we\"ird", List.of(new CallNode("f\"#0", "p.Q.f", 3, List.of("a\\b"), List.of("{x}"))),
        List.of(new Tensor("a\\b", "in", "[N]", false), new Tensor("{x}", "out", "[N]", false)), List.of(), List.of());
  }

  @Test
  void awkwardNamesAreQuotedAndEscaped() {
    assertThat(ReportDot.quote("a\"b\\c\nd\u0001")).isEqualTo("\"a\\\"b\\\\c\\nd\uFFFD\"");
    for (String text : List.of(ReportDot.before(awkward()), ReportDot.after(awkward()))) {
      DotChecker dot = DotChecker.parse(text);
      assertThat(dot.nodes.keySet()).containsExactly("call:f\"#0", "tensor:a\\b", "tensor:{x}");
      assertThat(dot.edges).hasSize(2);
    }
  }

  @Test
  void theCheckerCatchesUnbalancedText() {
    String good = ReportDot.before(Fixtures.softmax());
    DotChecker.parse(good);
    assertThrows(IllegalArgumentException.class, () -> DotChecker.parse(good.substring(0, good.lastIndexOf('}'))));
    assertThrows(IllegalArgumentException.class, () -> DotChecker.parse(good.replaceFirst("\"call:max#0\"", "\"call:max#0")));
    assertThrows(IllegalArgumentException.class, () -> DotChecker.parse(good.replaceFirst("\\[", "")));
  }

  /** Where Graphviz is installed, it must accept every picture. */
  @Test
  void graphvizAcceptsTheText(@TempDir Path dir) throws Exception {
    boolean dotInstalled = Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
        .anyMatch(p -> Files.isExecutable(Path.of(p, "dot")));
    Assumptions.assumeTrue(dotInstalled, "Graphviz dot is not on the PATH");
    for (Composite c : List.of(Fixtures.lstm(), Fixtures.softmax(), awkward())) {
      for (String text : List.of(ReportDot.before(c), ReportDot.after(c))) {
        Path in = Files.writeString(dir.resolve("g.dot"), text, StandardCharsets.UTF_8);
        Process p = new ProcessBuilder("dot", "-Tsvg", in.toString(), "-o", dir.resolve("g.svg").toString())
            .redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(log).isEmpty();
        assertThat(p.exitValue()).isEqualTo(0);
      }
    }
  }
}
