package dev.kiln.processor.report;

import dev.kiln.processor.report.DagLayout.Box;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Routes the edges of a laid-out {@link Dag}. A downward edge leaves its source's bottom and enters
 * its target's top, the ends of a node's edges spread over its width in the order of their other
 * ends; between neighbouring rows it is one S-shaped cubic curve. An edge that spans several rows
 * threads each row in between through the gap between two nodes nearest its course, so it never
 * runs under a node: a vertical run through the row, an S-curve from row to row. An edge against
 * the layering (a cycle in a faulty report) bends round the right side of its nodes.
 */
final class EdgeRouter {
  /** An SVG path and where its label goes: the middle of its first stretch, next to the producer. */
  record Route(String path, int labelX, int labelY) {}

  private static final int LANE = 6;

  private final Dag dag;
  private final DagLayout layout;
  private final Map<String, Dag.Node> nodes = new HashMap<>();
  private final Map<Dag.Edge, int[]> ends = new IdentityHashMap<>();
  /** Per (row, gap): how many edges already pass, so the next one takes a lane beside them. */
  private final Map<String, Integer> lanes = new HashMap<>();

  private EdgeRouter(Dag dag, DagLayout layout) {
    this.dag = dag;
    this.layout = layout;
    dag.nodes().forEach(n -> nodes.putIfAbsent(n.key(), n));
  }

  /** A route per edge, by identity (a call may read one tensor twice); none for an edge to an unknown node. */
  static Map<Dag.Edge, Route> route(Dag dag, DagLayout layout) {
    EdgeRouter r = new EdgeRouter(dag, layout);
    r.endpoints();
    Map<Dag.Edge, Route> routes = new IdentityHashMap<>();
    for (Dag.Edge e : dag.edges()) {
      Box from = layout.box(e.from());
      Box to = layout.box(e.to());
      if (from != null && to != null) {
        routes.put(e, r.ends.containsKey(e) ? r.downward(e) : sideways(from, to));
      }
    }
    return routes;
  }

  private Route downward(Dag.Edge e) {
    int[] p = ends.get(e);
    int first = layout.layer(e.from()) + 1;
    int last = layout.layer(e.to()) - 1;
    StringBuilder path = new StringBuilder(String.format(Locale.ROOT, "M%d,%d", p[0], p[1]));
    int x = p[0];
    int y = p[1];
    int labelX = 0;
    int labelY = 0;
    for (int r = first; r <= last + 1; r++) {
      int nx;
      int ny;
      if (r <= last) {
        nx = gap(r, (int) Math.round(x + (p[2] - x) / (double) (last + 2 - r)));
        ny = layout.rowTop(r) - 4;
      } else {
        nx = p[2];
        ny = p[3];
      }
      int mid = (y + ny) / 2;
      path.append(String.format(Locale.ROOT, " C%d,%d %d,%d %d,%d", x, mid, nx, mid, nx, ny));
      if (r == first) {
        labelX = (x + nx) / 2;
        labelY = mid;
      }
      x = nx;
      y = ny;
      if (r <= last) {
        y = layout.rowBottom(r) + 4;
        path.append(String.format(Locale.ROOT, " L%d,%d", x, y));
      }
    }
    return new Route(path.toString(), labelX, labelY);
  }

  /** The x at which to cross row {@code r}: the free gap nearest {@code wanted}, in a lane of its own. */
  private int gap(int r, int wanted) {
    List<Box> row = layout.row(r);
    if (row.isEmpty()) {
      return wanted;
    }
    List<int[]> gaps = new ArrayList<>();   // {lowest x, preferred x, highest x}
    int first = row.get(0).x();
    gaps.add(new int[] {LANE, Math.max(LANE, first - 20), first - LANE});
    for (int k = 0; k + 1 < row.size(); k++) {
      int lo = row.get(k).right() + LANE;
      int hi = row.get(k + 1).x() - LANE;
      gaps.add(new int[] {lo, (lo + hi) / 2, hi});
    }
    int last = row.get(row.size() - 1).right();
    gaps.add(new int[] {last + LANE, Math.min(layout.width() - LANE, last + 20), layout.width() - LANE});
    int best = 0;
    for (int k = 1; k < gaps.size(); k++) {
      if (Math.abs(gaps.get(k)[1] - wanted) < Math.abs(gaps.get(best)[1] - wanted)) {
        best = k;
      }
    }
    int used = lanes.merge(r + ":" + best, 1, Integer::sum) - 1;
    int side = used % 2 == 0 ? 1 : -1;
    int[] g = gaps.get(best);
    return Math.max(g[0], Math.min(g[2], g[1] + side * ((used + 1) / 2) * LANE));
  }

  private static Route sideways(Box from, Box to) {
    boolean self = from.equals(to);
    int bend = self ? 40 : 60;
    int y0 = from.cy() - (self ? 6 : 0);
    int y3 = to.cy() + (self ? 6 : 0);
    String path = String.format(Locale.ROOT, "M%d,%d C%d,%d %d,%d %d,%d", from.right(), y0, from.right() + bend, y0,
        to.right() + bend, y3, to.right(), y3);
    return new Route(path, (from.right() + to.right()) / 2 + bend * 3 / 4, (y0 + y3) / 2);
  }

  private void endpoints() {
    Map<String, List<Dag.Edge>> leaving = new HashMap<>();
    Map<String, List<Dag.Edge>> entering = new HashMap<>();
    for (Dag.Edge e : dag.edges()) {
      if (layout.box(e.from()) != null && layout.box(e.to()) != null && layout.layer(e.to()) > layout.layer(e.from())) {
        ends.put(e, new int[4]);
        leaving.computeIfAbsent(e.from(), k -> new ArrayList<>()).add(e);
        entering.computeIfAbsent(e.to(), k -> new ArrayList<>()).add(e);
      }
    }
    leaving.forEach((key, edges) -> spread(key, edges, Dag.Edge::to, true));
    entering.forEach((key, edges) -> spread(key, edges, Dag.Edge::from, false));
  }

  /** Spreads the ends of {@code edges} over the bottom (or top) of node {@code key}, on its outline. */
  private void spread(String key, List<Dag.Edge> edges, Function<Dag.Edge, String> other, boolean bottom) {
    edges.sort(Comparator.comparingInt(e -> layout.box(other.apply(e)).cx()));
    Box b = layout.box(key);
    boolean ellipse = nodes.get(key).style().isTensor();
    for (int k = 0; k < edges.size(); k++) {
      int dx = (int) Math.round(((k + 1.0) / (edges.size() + 1) - 0.5) * b.w() * 0.7);
      int dy = b.h() / 2;
      if (ellipse) {
        double u = dx / (b.w() / 2.0);
        dy = (int) Math.round(b.h() / 2.0 * Math.sqrt(Math.max(0, 1 - u * u)));
      }
      int[] end = ends.get(edges.get(k));
      end[bottom ? 0 : 2] = b.cx() + dx;
      end[bottom ? 1 : 3] = bottom ? b.cy() + dy : b.cy() - dy;
    }
  }
}
