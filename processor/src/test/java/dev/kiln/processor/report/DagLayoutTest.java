package dev.kiln.processor.report;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import dev.kiln.processor.report.Dag.EdgeStyle;
import dev.kiln.processor.report.Dag.Node;
import dev.kiln.processor.report.Dag.NodeStyle;
import dev.kiln.processor.report.DagLayout.Box;
import dev.kiln.processor.report.FusionReport.CallNode;
import dev.kiln.processor.report.FusionReport.Composite;
import dev.kiln.processor.report.FusionReport.Kernel;
import dev.kiln.processor.report.FusionReport.Tensor;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The layered layout: layers are longest paths, nothing overlaps, each kernel frame holds exactly its calls. */
class DagLayoutTest {
  private static boolean overlap(Box a, Box b) {
    return a.x() < b.right() && b.x() < a.right() && a.y() < b.bottom() && b.y() < a.bottom();
  }

  private static boolean inside(Box inner, Box outer) {
    return inner.x() >= outer.x() && inner.right() <= outer.right() && inner.y() >= outer.y() && inner.bottom() <= outer.bottom();
  }

  @Test
  void aNodesLayerIsTheLongestPathFromAnInput() {
    DagLayout l = DagLayout.of(DagViews.before(Fixtures.lstm()));
    assertThat(l.layer("tensor:gates")).isEqualTo(0);
    assertThat(l.layer("tensor:c")).isEqualTo(0);
    assertThat(l.layer("call:slice#0")).isEqualTo(1);
    assertThat(l.layer("tensor:i")).isEqualTo(2);
    assertThat(l.layer("call:sigmoid#4")).isEqualTo(3);
    assertThat(l.layer("call:cellUpdate#8")).isEqualTo(5);
    assertThat(l.layer("tensor:cNext")).isEqualTo(6);
    assertThat(l.layer("call:hidden#9")).isEqualTo(7);
    assertThat(l.layer("tensor:hNext")).isEqualTo(8);
  }

  @Test
  void nodesNeverOverlapAndStayOnTheCanvas() {
    for (Composite c : List.of(Fixtures.lstm(), Fixtures.softmax(), parallelKernels())) {
      for (Dag dag : List.of(DagViews.before(c), DagViews.after(c))) {
        DagLayout l = DagLayout.of(dag);
        List<Node> nodes = dag.nodes();
        for (int i = 0; i < nodes.size(); i++) {
          Box a = l.box(nodes.get(i).key());
          assertWithMessage(dag.title() + " " + nodes.get(i).key()).that(a.x() >= 0 && a.y() >= 0 && a.right() <= l.width()
              && a.bottom() <= l.height()).isTrue();
          for (int j = i + 1; j < nodes.size(); j++) {
            assertWithMessage(dag.title() + ": " + nodes.get(i).key() + " and " + nodes.get(j).key())
                .that(overlap(a, l.box(nodes.get(j).key()))).isFalse();
          }
        }
        for (Dag.Edge e : dag.edges()) {
          assertWithMessage(dag.title() + ": " + e).that(l.layer(e.to())).isGreaterThan(l.layer(e.from()));
        }
      }
    }
  }

  /** Two kernels that do not depend on each other, both reading x, and a third that joins them. */
  private static Composite parallelKernels() {
    return new Composite("branches",
        List.of(new CallNode("f#0", "p.Ops.f", 1, List.of("x"), List.of("a")), new CallNode("g#1", "p.Ops.g", 2, List.of("x"), List.of("b")),
            new CallNode("h#2", "p.Ops.h", 3, List.of("a", "b"), List.of("y"))),
        List.of(new Tensor("x", "in", "[N]", false), new Tensor("y", "out", "[N]", false), new Tensor("a", "temp", "[N]", true),
            new Tensor("b", "temp", "[N]", true)),
        List.of(new Kernel("k0", List.of("f#0"), "[i < N]", List.of("x"), List.of("a")),
            new Kernel("k1", List.of("g#1"), "[i < N]", List.of("x"), List.of("b")),
            new Kernel("k2", List.of("h#2"), "[i < N]", List.of("a", "b"), List.of("y"))),
        List.of(new FusionReport.Edge("f#0", "h#2", "a", false, "k0 and k1 run apart"), new FusionReport.Edge("g#1", "h#2", "b", false, "same")));
  }

  @Test
  void independentKernelsStillGetBandsOfTheirOwn() {
    DagLayout l = DagLayout.of(DagViews.after(parallelKernels()));
    assertThat(l.layer("call:f#0")).isLessThan(l.layer("call:g#1"));
    assertThat(l.groupBox(0).bottom()).isLessThan(l.groupBox(1).y());
    assertThat(l.groupBox(1).bottom()).isLessThan(l.groupBox(2).y());
  }

  @Test
  void eachKernelFrameHoldsItsCallsAndNothingElse() {
    for (Composite c : List.of(Fixtures.lstm(), Fixtures.softmax(), parallelKernels())) {
      Dag dag = DagViews.after(c);
      DagLayout l = DagLayout.of(dag);
      assertThat(dag.groups()).hasSize(c.kernels().size());
      for (int g = 0; g < dag.groups().size(); g++) {
        Box frame = l.groupBox(g);
        assertThat(frame).isNotNull();
        for (Node n : dag.nodes()) {
          Box box = l.box(n.key());
          if (n.group() == g) {
            assertWithMessage(n.key() + " in " + dag.groups().get(g)).that(inside(box, frame)).isTrue();
          } else {
            assertWithMessage(n.key() + " outside " + dag.groups().get(g)).that(overlap(box, frame)).isFalse();
          }
        }
        for (int h = g + 1; h < dag.groups().size(); h++) {
          assertThat(overlap(frame, l.groupBox(h))).isFalse();
        }
      }
    }
  }

  @Test
  void kernelsAreStackedInLaunchOrder() {
    DagLayout l = DagLayout.of(DagViews.after(Fixtures.softmax()));
    assertThat(l.groupBox(0).bottom()).isLessThan(l.groupBox(1).y());
  }

  @Test
  void aCycleOrAnUnknownEndIsDrawnNotThrown() {
    Dag dag = new Dag("cycle", List.of(
        new Node("a", List.of("a"), NodeStyle.CALL, -1, ""),
        new Node("b", List.of("b"), NodeStyle.TEMP, -1, ""),
        new Node("c", List.of("c"), NodeStyle.CALL, -1, "")),
        List.of(new Dag.Edge("a", "b", "", EdgeStyle.FLOW, ""), new Dag.Edge("b", "c", "", EdgeStyle.FLOW, ""),
            new Dag.Edge("c", "a", "back", EdgeStyle.MATERIALISED, ""), new Dag.Edge("c", "c", "", EdgeStyle.FLOW, ""),
            new Dag.Edge("c", "nowhere", "", EdgeStyle.FLOW, "")),
        List.of());
    DagLayout l = DagLayout.of(dag);
    assertThat(l.layer("a")).isEqualTo(0);
    assertThat(l.layer("c")).isEqualTo(2);
    Markup out = new Markup();
    SvgWriter.draw(out, dag, "t");
    assertThat(out.finish()).contains("back");
  }
}
