package dev.kiln.processor.fusion;

import dev.kiln.processor.ir.CompositeIr;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import java.util.List;

/**
 * A fused composite: its kernels in launch order, the temporaries it still allocates, and every
 * producer-consumer decision with its reason.
 */
public record FusionPlan(CompositeIr composite, List<Kernel> kernels, List<CompositeIr.Temp> allocated, List<Edge> edges) {
  public FusionPlan {
    kernels = List.copyOf(kernels);
    allocated = List.copyOf(allocated);
    edges = List.copyOf(edges);
  }

  /**
   * One fused kernel: a grid operator over the composite's names, with {@code derived} sizes (grid
   * extents that are not a single {@code @Dim}) that the launcher computes and passes.
   *
   * @param calls the positions of the calls it fuses
   */
  public record Kernel(OperatorIr ir, List<Integer> calls, List<Derived> derived) {
    public Kernel {
      calls = List.copyOf(calls);
      derived = List.copyOf(derived);
    }
  }

  /** A kernel parameter computed from the composite's sizes. */
  public record Derived(Param.Scalar param, Poly value) {}

  /** {@code to} reads {@code tensor}, which {@code from} wrote (call positions). */
  public record Edge(int from, int to, String tensor, boolean fused, String reason) {}
}
