package dev.kiln.processor.report;

import dev.kiln.processor.report.FusionReport.Composite;
import dev.kiln.processor.report.FusionReport.Edge;
import dev.kiln.processor.report.FusionReport.Tensor;

/**
 * The counts a reader looks at first: calls (one kernel each without fusion), kernels after fusion,
 * temporaries and how many of them fusion still allocates, fused and materialised edges.
 */
record CompositeSummary(
    int calls, int kernels, int temporaries, int allocatedTemporaries, int fusedEdges, int materialisedEdges) {
  static final String TEMP = "temp";

  static CompositeSummary of(Composite c) {
    int temps = 0;
    int allocated = 0;
    for (Tensor t : c.tensors()) {
      if (TEMP.equals(t.kind())) {
        temps++;
        allocated += t.allocated() ? 1 : 0;
      }
    }
    int fused = 0;
    for (Edge e : c.edges()) {
      fused += e.fused() ? 1 : 0;
    }
    return new CompositeSummary(c.calls().size(), c.kernels().size(), temps, allocated, fused, c.edges().size() - fused);
  }

  int elidedTemporaries() {
    return temporaries - allocatedTemporaries;
  }
}
