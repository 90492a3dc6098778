package dev.kiln.processor.report;

import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A layered layout of a {@link Dag}, in pixels, for the SVG pictures. {@link Layering} gives each
 * node its row (the longest path to it from a source; each kernel a band of rows of its own); the
 * nodes of a row are spread evenly, ordered by a few barycenter sweeps to cut crossings. On a
 * band's rows the kernel's members come first and any other node goes to their right, so one
 * rectangle holds exactly the kernel's members. The layout never fails, cycles included.
 */
final class DagLayout {
  static final int MARGIN = 20;
  static final int LINE_HEIGHT = 15;
  static final int CHAR_WIDTH = 7;
  static final int MAX_CHARS = 28;
  static final int GROUP_PAD = 10;
  static final int GROUP_TITLE = 30;
  /** A kernel's name or grid longer than this is cut in its frame's title. */
  static final int MAX_TITLE_CHARS = 40;
  private static final int H_GAP = 40;
  private static final int V_GAP = 64;
  private static final int TOP = MARGIN + GROUP_TITLE + GROUP_PAD;

  /** A rectangle: a node's bounding box, or a group's frame. */
  record Box(int x, int y, int w, int h) {
    int cx() {
      return x + w / 2;
    }

    int cy() {
      return y + h / 2;
    }

    int bottom() {
      return y + h;
    }

    int right() {
      return x + w;
    }
  }

  private final Dag dag;
  private final Layering layering;
  private final int n;
  private final double[] slot;
  /** Per group: the most members on one of its rows, and the most other nodes on one. */
  private int[] bandMembers;
  private int[] bandOthers;
  private int slots;
  private int slotWidth;
  private final int[] nodeWidth;
  private final int[] nodeHeight;
  private int rowHeight;
  private int tallest;
  private final Box[] boxes;
  private final Box[] groupBoxes;
  private int width;
  private int height;

  private DagLayout(Dag dag) {
    this.dag = dag;
    this.layering = Layering.of(dag);
    this.n = dag.nodes().size();
    slot = new double[n];
    nodeWidth = new int[n];
    nodeHeight = new int[n];
    boxes = new Box[n];
    groupBoxes = new Box[dag.groups().size()];
  }

  static DagLayout of(Dag dag) {
    DagLayout l = new DagLayout(dag);
    l.measure();
    l.assignSlots();
    for (int sweep = 0; sweep < 4; sweep++) {
      l.sweep(sweep % 2 == 0);
    }
    l.place();
    return l;
  }

  /** The node's box; null for a key the picture does not have. */
  Box box(String key) {
    Integer i = layering.index(key);
    return i == null ? null : boxes[i];
  }

  /** The frame around group {@code g}'s members, title included; null for a group with none. */
  Box groupBox(int g) {
    return groupBoxes[g];
  }

  int layer(String key) {
    return layering.layer(layering.index(key));
  }

  /** The distance between the centres of two neighbouring nodes on a row. */
  int slotWidth() {
    return slotWidth;
  }

  /** The boxes on row {@code layer}, left to right. */
  List<Box> row(int layer) {
    return rows().get(layer).stream().map(i -> boxes[i]).sorted(Comparator.comparingInt(Box::x)).toList();
  }

  int rowTop(int layer) {
    return TOP + layer * rowHeight;
  }

  int rowBottom(int layer) {
    return rowTop(layer) + tallest;
  }

  /** The boxes of all nodes, in the picture's node order. */
  List<Box> boxes() {
    return List.of(boxes);
  }

  int width() {
    return width;
  }

  int height() {
    return height;
  }

  /** {@code line} cut to {@link #MAX_CHARS} characters, an ellipsis marking the cut. */
  static String clip(String line) {
    return line.length() <= MAX_CHARS ? line : line.substring(0, MAX_CHARS - 1) + "\u2026";
  }

  /** Slot counts per row and band; then each row's nodes get slots in their current order. */
  private void assignSlots() {
    bandMembers = new int[dag.groups().size()];
    bandOthers = new int[dag.groups().size()];
    for (int r = 0; r < rows().size(); r++) {
      int g = layering.band(r);
      if (g >= 0) {
        int members = (int) rows().get(r).stream().filter(layering::inBand).count();
        bandMembers[g] = Math.max(bandMembers[g], members);
        bandOthers[g] = Math.max(bandOthers[g], rows().get(r).size() - members);
      }
    }
    for (int g = 0; g < bandMembers.length; g++) {
      if (bandMembers[g] > 0) {
        bandMembers[g] = Math.max(bandMembers[g], (titleWidth(g) + slotWidth - 1) / slotWidth);
      }
    }
    slots = 1;
    for (int r = 0; r < rows().size(); r++) {
      int g = layering.band(r);
      slots = Math.max(slots, g >= 0 ? bandMembers[g] + bandOthers[g] : rows().get(r).size());
    }
    for (int r = 0; r < rows().size(); r++) {
      spread(r);
    }
  }

  private void spread(int r) {
    List<Integer> row = rows().get(r);
    int g = layering.band(r);
    if (g < 0) {
      double start = (slots - row.size()) / 2.0;
      for (int k = 0; k < row.size(); k++) {
        slot[row.get(k)] = start + k;
      }
      return;
    }
    int members = bandMembers[g];
    double block = (slots - members - bandOthers[g]) / 2.0;
    List<Integer> in = row.stream().filter(layering::inBand).toList();
    List<Integer> out = row.stream().filter(i -> !layering.inBand(i)).toList();
    for (int k = 0; k < in.size(); k++) {
      slot[in.get(k)] = block + (members - in.size()) / 2.0 + k;
    }
    for (int k = 0; k < out.size(); k++) {
      slot[out.get(k)] = block + members + k;
    }
  }

  /** One barycenter sweep, down (by predecessors) or up (by successors); members keep left of others. */
  private void sweep(boolean down) {
    for (int step = 0; step < rows().size(); step++) {
      int r = down ? step : rows().size() - 1 - step;
      List<Integer> row = rows().get(r);
      Map<Integer, Double> key = new HashMap<>();
      for (int i : row) {
        double sum = 0;
        int count = 0;
        for (int j : down ? layering.preds(i) : layering.succs(i)) {
          if (down ? layering.layer(j) < r : layering.layer(j) > r) {
            sum += slot[j];
            count++;
          }
        }
        key.put(i, count == 0 ? slot[i] : sum / count);
      }
      row.sort(Comparator.<Integer>comparingInt(i -> layering.inBand(i) ? 0 : 1)
          .thenComparingDouble(key::get)
          .thenComparingDouble(i -> slot[i]));
      spread(r);
    }
  }

  private void measure() {
    int maxW = 0;
    int maxH = 0;
    for (int i = 0; i < n; i++) {
      Dag.Node node = dag.nodes().get(i);
      int chars = node.lines().stream().mapToInt(s -> clip(s).length()).max().orElse(1);
      boolean tensor = node.style().isTensor();
      nodeWidth[i] = Math.max(tensor ? 70 : 80, chars * CHAR_WIDTH + (tensor ? 34 : 20));
      nodeHeight[i] = node.lines().size() * LINE_HEIGHT + (tensor ? 16 : 12);
      maxW = Math.max(maxW, nodeWidth[i]);
      maxH = Math.max(maxH, nodeHeight[i]);
    }
    slotWidth = Math.max(maxW, 80) + H_GAP;
    rowHeight = Math.max(maxH, 40) + V_GAP;
    tallest = maxH;
  }

  /** The width a group's frame needs for its title: kernel name and grid. */
  private int titleWidth(int g) {
    Dag.Group group = dag.groups().get(g);
    int chars = Math.max(length(group.name()), length(group.grid()));
    return Math.min(chars, MAX_TITLE_CHARS) * CHAR_WIDTH + 2 * GROUP_PAD;
  }

  private static int length(String s) {
    return s == null ? 0 : s.length();
  }

  private List<List<Integer>> rows() {
    return layering.rows();
  }

  private void place() {
    for (int i = 0; i < n; i++) {
      int cx = MARGIN + (int) Math.round((slot[i] + 0.5) * slotWidth);
      int y = rowTop(layering.layer(i)) + (tallest - nodeHeight[i]) / 2;
      boxes[i] = new Box(cx - nodeWidth[i] / 2, y, nodeWidth[i], nodeHeight[i]);
    }
    for (int g = 0; g < groupBoxes.length; g++) {
      int x0 = Integer.MAX_VALUE;
      int y0 = Integer.MAX_VALUE;
      int x1 = Integer.MIN_VALUE;
      int y1 = Integer.MIN_VALUE;
      for (int i = 0; i < n; i++) {
        if (layering.group(i) == g) {
          x0 = Math.min(x0, boxes[i].x());
          y0 = Math.min(y0, boxes[i].y());
          x1 = Math.max(x1, boxes[i].right());
          y1 = Math.max(y1, boxes[i].bottom());
        }
      }
      if (x0 != Integer.MAX_VALUE) {
        int w = Math.max(x1 - x0 + 2 * GROUP_PAD, titleWidth(g));
        int cx = (x0 + x1) / 2;
        groupBoxes[g] = new Box(cx - w / 2, y0 - GROUP_PAD - GROUP_TITLE, w, y1 - y0 + 2 * GROUP_PAD + GROUP_TITLE);
      }
    }
    width = 2 * MARGIN + slots * slotWidth;
    height = TOP + Math.max(rows().size(), 1) * rowHeight - V_GAP + GROUP_PAD + MARGIN;
  }
}
