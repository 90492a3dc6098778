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
public record FusionPlan(CompositeIr composite, List<Kernel> kernels, List<CompositeIr.Temp> allocated, List<Edge> edges,
    List<Split> splits) {
  public FusionPlan {
    kernels = List.copyOf(kernels);
    allocated = List.copyOf(allocated);
    edges = List.copyOf(edges);
    splits = List.copyOf(splits);
  }

  /** A plan with no recorded splits. */
  public FusionPlan(CompositeIr composite, List<Kernel> kernels, List<CompositeIr.Temp> allocated, List<Edge> edges) {
    this(composite, kernels, allocated, edges, List.of());
  }

  /**
   * Why kernel number {@code kernel} (after the first) starts where it does: its first call, {@code call}, did not join
   * the kernel before it, for {@code reason} (the grids differ, it reads nothing that kernel
   * computes, a {@code @Reduce} result must be complete first, ...).
   */
  public record Split(int kernel, int call, String reason) {}

  /**
   * One fused kernel: a grid operator over the composite's names, with {@code derived} sizes (grid
   * extents that are not a single {@code @Dim}) that the launcher computes and passes.
   *
   * @param calls the positions of the calls it fuses
   * @param perWorker the kernel with the temporaries that only its workers use, each in its own
   *     slice, as {@code SCRATCH} arrays of one slice (the CPU's form); null when it has none
   * @param device the kernel with the temporaries it recomputes instead of storing ({@link
   *     Recompute}: the device's form); null when it has none
   */
  public record Kernel(OperatorIr.Grid ir, List<Integer> calls, List<Derived> derived, OperatorIr.Grid perWorker,
      OperatorIr.Grid device) {
    public Kernel {
      calls = List.copyOf(calls);
      derived = List.copyOf(derived);
    }

    public Kernel(OperatorIr.Grid ir, List<Integer> calls, List<Derived> derived, OperatorIr.Grid perWorker) {
      this(ir, calls, derived, perWorker, null);
    }

    public Kernel(OperatorIr.Grid ir, List<Integer> calls, List<Derived> derived) {
      this(ir, calls, derived, null, null);
    }

    /** The form the device compiles: {@link #device} when there is one. */
    public OperatorIr.Grid onDevice() {
      return device == null ? ir : device;
    }

    Kernel withDevice(OperatorIr.Grid form) {
      return new Kernel(ir, calls, derived, perWorker, form);
    }

    /** The form the CPU compiles: {@link #perWorker} when there is one. */
    public OperatorIr.Grid cpu() {
      return perWorker == null ? ir : perWorker;
    }
  }

  /** This plan with no per-worker form for the kernels named in {@code kernels} (they compile otherwise). */
  public FusionPlan withoutPerWorker(java.util.Set<String> kernelNames) {
    List<Kernel> out = kernels.stream()
        .map(k -> k.perWorker() != null && kernelNames.contains(k.ir().name())
            ? new Kernel(k.ir(), k.calls(), k.derived(), null, k.device()) : k)
        .toList();
    return new FusionPlan(composite, out, allocated, edges, splits);
  }

  /** The temporaries the CPU launcher allocates: those no kernel keeps per worker. */
  public List<CompositeIr.Temp> allocatedOnCpu() {
    java.util.Set<String> kept = perWorkerTemps();
    return allocated.stream().filter(t -> !kept.contains(t.name())).toList();
  }

  /**
   * The allocated temporaries that exactly one kernel uses, in the form {@code form} gives of each
   * (its IR, or its device form): those a pass may keep inside that kernel.
   */
  java.util.Set<String> temporariesOfOneKernel(java.util.function.Function<Kernel, OperatorIr.Grid> form) {
    java.util.Map<String, Integer> users = new java.util.HashMap<>();
    kernels.forEach(k -> form.apply(k).arrays().forEach(a -> users.merge(a.name(), 1, Integer::sum)));
    java.util.Set<String> temps = new java.util.HashSet<>();
    for (CompositeIr.Temp t : allocated) {
      if (users.getOrDefault(t.name(), 0) == 1) {
        temps.add(t.name());
      }
    }
    return temps;
  }

  /** The temporaries the device launcher allocates: those some kernel's device form still uses. */
  public List<CompositeIr.Temp> allocatedOnDevice() {
    java.util.Set<String> used = new java.util.HashSet<>();
    kernels.forEach(k -> k.onDevice().arrays().forEach(a -> used.add(a.name())));
    return allocated.stream().filter(t -> used.contains(t.name())).toList();
  }

  /** The temporaries some kernel keeps per worker on the CPU. */
  public java.util.Set<String> perWorkerTemps() {
    java.util.Set<String> kept = new java.util.LinkedHashSet<>();
    for (Kernel k : kernels) {
      if (k.perWorker() != null) {
        k.perWorker().scratch().forEach(a -> kept.add(a.name()));
      }
    }
    return kept;
  }

  /** A kernel parameter computed from the composite's sizes. */
  public record Derived(Param.Scalar param, Poly value) {}

  /** {@code to} reads {@code tensor}, which {@code from} wrote (call positions). */
  public record Edge(int from, int to, String tensor, boolean fused, String reason) {}
}
