package dev.kiln.processor.report;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static org.junit.jupiter.api.Assertions.fail;

import dev.kiln.processor.report.DagLayout.Box;
import dev.kiln.processor.report.FusionReport.Composite;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Routed edges start and end on their nodes and never run under another node. */
class EdgeRouterTest {
  /** Points along an SVG path made of M, C and L commands with absolute integer coordinates. */
  static List<double[]> sample(String path) {
    String[] t = path.replace(",", " ").trim().split("\\s+");
    List<double[]> points = new ArrayList<>();
    double x = 0;
    double y = 0;
    for (int i = 0; i < t.length; ) {
      String op = t[i].substring(0, 1);
      t[i] = t[i].substring(1);
      if (op.equals("M")) {
        x = Double.parseDouble(t[i]);
        y = Double.parseDouble(t[i + 1]);
        points.add(new double[] {x, y});
        i += 2;
      } else if (op.equals("L")) {
        double nx = Double.parseDouble(t[i]);
        double ny = Double.parseDouble(t[i + 1]);
        for (int s = 1; s <= 10; s++) {
          points.add(new double[] {x + (nx - x) * s / 10, y + (ny - y) * s / 10});
        }
        x = nx;
        y = ny;
        i += 2;
      } else {
        assertThat(op).isEqualTo("C");
        double[] c = new double[6];
        for (int k = 0; k < 6; k++) {
          c[k] = Double.parseDouble(t[i + k]);
        }
        for (int s = 1; s <= 30; s++) {
          double v = s / 30.0;
          double u = 1 - v;
          points.add(new double[] {
              u * u * u * x + 3 * u * u * v * c[0] + 3 * u * v * v * c[2] + v * v * v * c[4],
              u * u * u * y + 3 * u * u * v * c[1] + 3 * u * v * v * c[3] + v * v * v * c[5]});
        }
        x = c[4];
        y = c[5];
        i += 6;
      }
    }
    return points;
  }

  private static boolean within(double[] p, Box b, int margin) {
    return p[0] > b.x() - margin && p[0] < b.right() + margin && p[1] > b.y() - margin && p[1] < b.bottom() + margin;
  }

  @Test
  void edgesJoinTheirNodesAndRunOnlyInTheGaps() {
    for (Composite c : List.of(Fixtures.lstm(), Fixtures.softmax())) {
      checkRoutes(DagViews.before(c));
      checkRoutes(DagViews.after(c));
    }
  }

  /** Every edge of an acyclic picture starts on its source, ends on its target and runs under no other node. */
  static void checkRoutes(Dag dag) {
    DagLayout layout = DagLayout.of(dag);
    Map<Dag.Edge, EdgeRouter.Route> routes = EdgeRouter.route(dag, layout);
    assertThat(routes).hasSize(dag.edges().size());
    for (Dag.Edge e : dag.edges()) {
      List<double[]> points = sample(routes.get(e).path());
      Box from = layout.box(e.from());
      Box to = layout.box(e.to());
      assertWithMessage(dag.title() + ": start of " + e).that(within(points.get(0), from, 1)).isTrue();
      assertWithMessage(dag.title() + ": end of " + e).that(within(points.get(points.size() - 1), to, 1)).isTrue();
      for (double[] p : points) {
        if (p[0] < 0 || p[0] > layout.width()) {
          fail(dag.title() + ": " + e + " leaves the canvas");
        }
        for (Dag.Node n : dag.nodes()) {
          Box b = layout.box(n.key());
          if (b != from && b != to && within(p, b, -1)) {
            fail(dag.title() + ": " + e + " runs under " + n.key());
          }
        }
      }
    }
  }
}
