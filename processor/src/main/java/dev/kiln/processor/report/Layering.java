package dev.kiln.processor.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * The combinatorial half of {@link DagLayout}: which row (layer) each node of a {@link Dag} sits on.
 * A node's layer is the longest path to it from a source. Groups (kernels) take bands of rows of
 * their own, in group order: a group's members start below every row an earlier group used. An
 * edge that closes a cycle is ignored, so a faulty picture still gets layers.
 */
final class Layering {
  private final Dag dag;
  private final int n;
  private final Map<String, Integer> index = new HashMap<>();
  private final List<Set<Integer>> preds = new ArrayList<>();
  private final List<Set<Integer>> succs = new ArrayList<>();
  private final int[] layer;
  private final int[] position;
  private final List<List<Integer>> rows = new ArrayList<>();
  private int[] bandOfRow;

  private Layering(Dag dag) {
    this.dag = dag;
    this.n = dag.nodes().size();
    for (int i = 0; i < n; i++) {
      index.putIfAbsent(dag.nodes().get(i).key(), i);
      preds.add(new LinkedHashSet<>());
      succs.add(new LinkedHashSet<>());
    }
    for (Dag.Edge e : dag.edges()) {
      Integer from = index.get(e.from());
      Integer to = index.get(e.to());
      if (from != null && to != null && !from.equals(to)) {
        succs.get(from).add(to);
        preds.get(to).add(from);
      }
    }
    layer = new int[n];
    position = new int[n];
  }

  static Layering of(Dag dag) {
    Layering l = new Layering(dag);
    l.assignLayers(l.topologicalOrder());
    return l;
  }

  /** The node's index in the picture's node list; null for a key it does not have. */
  Integer index(String key) {
    return index.get(key);
  }

  int layer(int i) {
    return layer[i];
  }

  Set<Integer> preds(int i) {
    return preds.get(i);
  }

  Set<Integer> succs(int i) {
    return succs.get(i);
  }

  /** Node indices per row, top to bottom; a caller may reorder a row in place. */
  List<List<Integer>> rows() {
    return rows;
  }

  /** The group whose band holds row {@code r}, or -1. */
  int band(int r) {
    return bandOfRow[r];
  }

  /** Whether node {@code i} is a member of the group whose band holds its row. */
  boolean inBand(int i) {
    return group(i) >= 0 && group(i) == bandOfRow[layer[i]];
  }

  int group(int i) {
    return dag.nodes().get(i).group();
  }

  /** Kahn's order; among ready nodes, ungrouped ones first, then by group, then by model order. */
  private int[] topologicalOrder() {
    Comparator<Integer> priority = Comparator.<Integer>comparingInt(i -> Math.max(group(i), -1)).thenComparingInt(i -> i);
    PriorityQueue<Integer> ready = new PriorityQueue<>(priority);
    int[] missing = new int[n];
    for (int i = 0; i < n; i++) {
      missing[i] = preds.get(i).size();
      if (missing[i] == 0) {
        ready.add(i);
      }
    }
    boolean[] done = new boolean[n];
    int[] order = new int[n];
    int count = 0;
    while (count < n) {
      if (ready.isEmpty()) {
        int first = -1;
        for (int i = 0; i < n; i++) {
          if (!done[i] && (first < 0 || priority.compare(i, first) < 0)) {
            first = i;
          }
        }
        ready.add(first);
      }
      int i = ready.poll();
      if (done[i]) {
        continue;
      }
      done[i] = true;
      position[i] = count;
      order[count++] = i;
      for (int s : succs.get(i)) {
        if (--missing[s] == 0) {
          ready.add(s);
        }
      }
    }
    return order;
  }

  private void assignLayers(int[] order) {
    int current = -1;
    int floor = 0;
    int deepestBand = -1;
    for (int i : order) {
      int l = 0;
      for (int p : preds.get(i)) {
        if (position[p] < position[i]) {
          l = Math.max(l, layer[p] + 1);
        }
      }
      int g = group(i);
      if (g >= 0) {
        if (g != current) {
          floor = deepestBand + 1;
          current = g;
        }
        l = Math.max(l, floor);
        deepestBand = Math.max(deepestBand, l);
      }
      layer[i] = l;
      while (rows.size() <= l) {
        rows.add(new ArrayList<>());
      }
      rows.get(l).add(i);
    }
    bandOfRow = new int[rows.size()];
    Arrays.fill(bandOfRow, -1);
    for (int i = 0; i < n; i++) {
      if (group(i) >= 0) {
        bandOfRow[layer[i]] = group(i);
      }
    }
  }
}
