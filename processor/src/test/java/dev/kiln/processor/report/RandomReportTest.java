package dev.kiln.processor.report;

import dev.kiln.testing.Json;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static org.junit.jupiter.api.Assertions.fail;

import dev.kiln.processor.report.DagLayout.Box;
import dev.kiln.processor.report.FusionReport.CallNode;
import dev.kiln.processor.report.FusionReport.Composite;
import dev.kiln.processor.report.FusionReport.Edge;
import dev.kiln.processor.report.FusionReport.Kernel;
import dev.kiln.processor.report.FusionReport.Tensor;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.xml.sax.InputSource;

/** Random composites, as a merger could report them: every writer copes, and the pictures keep their promises. */
class RandomReportTest {
  private static final String ODD = "\"<&>'\\\u00e9\u2192\n\t";

  /** Calls in source order, each reading earlier tensors; kernels cut the calls into runs, so launch order holds. */
  private static Composite composite(Random r, int index) {
    List<CallNode> calls = new ArrayList<>();
    List<Tensor> tensors = new ArrayList<>();
    List<Edge> edges = new ArrayList<>();
    List<String> producers = new ArrayList<>();
    int inputs = 1 + r.nextInt(3);
    for (int i = 0; i < inputs; i++) {
      tensors.add(new Tensor("in" + i, "in", "[N]", false));
      producers.add(null);
    }
    int n = 1 + r.nextInt(25);
    List<Kernel> kernels = new ArrayList<>();
    List<String> run = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String id = "op#" + i;
      List<String> reads = new ArrayList<>();
      for (int k = 0; k < 1 + r.nextInt(3); k++) {
        int t = r.nextInt(tensors.size());
        reads.add(tensors.get(t).name());
        if (producers.get(t) != null) {
          edges.add(new Edge(producers.get(t), id, tensors.get(t).name(), r.nextBoolean(), "why " + ODD + i));
        }
      }
      String out = i == n - 1 ? "out" : "t" + i;
      tensors.add(new Tensor(out, i == n - 1 ? "out" : "temp", "[N]", r.nextBoolean()));
      producers.add(id);
      calls.add(new CallNode(id, "p.Ops.f" + i, 10 + i, reads, List.of(out)));
      run.add(id);
      if (i == n - 1 || r.nextInt(4) == 0) {
        kernels.add(new Kernel("k" + kernels.size() + ODD, run, "[i < N]" + ODD, List.of(), List.of()));
        run = new ArrayList<>();
      }
    }
    return new Composite("c" + index, calls, tensors, kernels, edges);
  }

  @Test
  void everyWriterCopesWithRandomComposites() throws Exception {
    Random r = new Random(20240611);
    for (int round = 0; round < 40; round++) {
      List<Composite> composites = new ArrayList<>();
      for (int i = 0; i < 1 + r.nextInt(3); i++) {
        composites.add(composite(r, i));
      }
      FusionReport report = new FusionReport("p.R" + round + ODD, composites);
      assertThat(Json.parse(ReportJson.write(report))).isNotNull();
      String html = ReportHtml.write(report);
      DocumentBuilderFactory.newInstance().newDocumentBuilder()
          .parse(new InputSource(new StringReader(html.substring("<!DOCTYPE html>\n".length()))));
      for (Composite c : composites) {
        DotChecker before = DotChecker.parse(ReportDot.before(c));
        DotChecker after = DotChecker.parse(ReportDot.after(c));
        assertThat(before.nodes).hasSize(c.calls().size() + c.tensors().size());
        assertThat(after.clusters).hasSize(c.kernels().size());
        checkPicture(DagViews.before(c));
        checkPicture(DagViews.after(c));
        EdgeRouterTest.checkRoutes(DagViews.before(c));
        EdgeRouterTest.checkRoutes(DagViews.after(c));
      }
    }
  }

  private static void checkPicture(Dag dag) {
    DagLayout l = DagLayout.of(dag);
    List<Box> boxes = l.boxes();
    for (int i = 0; i < boxes.size(); i++) {
      for (int j = i + 1; j < boxes.size(); j++) {
        if (overlap(boxes.get(i), boxes.get(j))) {
          fail(dag.title() + ": nodes overlap");
        }
      }
    }
    for (int g = 0; g < dag.groups().size(); g++) {
      for (int i = 0; i < boxes.size(); i++) {
        if (dag.nodes().get(i).group() != g) {
          assertWithMessage(dag.title() + ": a node in the frame of another kernel").that(overlap(boxes.get(i), l.groupBox(g))).isFalse();
        }
      }
      for (int h = g + 1; h < dag.groups().size(); h++) {
        assertWithMessage(dag.title() + ": frames overlap").that(overlap(l.groupBox(g), l.groupBox(h))).isFalse();
      }
    }
  }

  private static boolean overlap(Box a, Box b) {
    return a.x() < b.right() && b.x() < a.right() && a.y() < b.bottom() && b.y() < a.bottom();
  }
}
