package dev.kiln.processor.report;

import java.util.List;

/**
 * What the merger decided for the composite operators of one annotated class: the resource
 * {@code META-INF/kiln/<package>/<Class>.fusion.json} and the pictures beside it are written from
 * this model.
 *
 * @param owner the annotated class's qualified name
 * @param shards per composite, the size it can be split along or why not (the {@code shard} pass)
 */
public record FusionReport(String owner, List<Composite> operators, java.util.Map<String, ShardReport.Operator> shards) {
  public FusionReport {
    operators = List.copyOf(operators);
    shards = java.util.Map.copyOf(shards);
  }

  public FusionReport(String owner, List<Composite> operators) {
    this(owner, operators, java.util.Map.of());
  }

  /** This report with each composite's shard plan (by composite name), which the JSON and the page show. */
  public FusionReport withShards(java.util.Map<String, ShardReport.Operator> byName) {
    return new FusionReport(owner, operators, byName);
  }

  /**
   * One composite operator.
   *
   * @param calls the operator calls of its body, in source order: the nodes of the DAG before fusion
   * @param tensors every array of the composite: parameters and temporaries
   * @param kernels the kernels after fusion, in launch order
   * @param edges one per (producer call, consumer call, tensor), in source order of the consumer
   * @param gradientOf for a backward pass ({@code <op>Grad}), the operator it is the gradient of; else null
   */
  public record Composite(String name, List<CallNode> calls, List<Tensor> tensors, List<Kernel> kernels, List<Edge> edges,
      String gradientOf) {
    /** A forward composite. */
    public Composite(String name, List<CallNode> calls, List<Tensor> tensors, List<Kernel> kernels, List<Edge> edges) {
      this(name, calls, tensors, kernels, edges, null);
    }

    public Composite {
      calls = List.copyOf(calls);
      tensors = List.copyOf(tensors);
      kernels = List.copyOf(kernels);
      edges = List.copyOf(edges);
    }
  }

  /**
   * One call in a composite's body.
   *
   * @param id unique in the composite, e.g. {@code "add#2"} (callee name, then its position)
   * @param operator the callee's qualified name, {@code "dev.kiln.lib.Elementwise.add"}
   * @param line the call's source line (0 when unknown)
   * @param reads tensor names the call reads, in parameter order
   * @param writes tensor names the call writes or accumulates into, in parameter order
   */
  public record CallNode(String id, String operator, long line, List<String> reads, List<String> writes) {
    public CallNode {
      reads = List.copyOf(reads);
      writes = List.copyOf(writes);
    }
  }

  /**
   * An array of the composite.
   *
   * @param kind {@code "in"}, {@code "out"} (parameters) or {@code "temp"} (made with new)
   * @param shape its extents as text, e.g. {@code "[B, 4*H]"}
   * @param allocated for a temporary: whether the fused composite still allocates it (on CUDA)
   * @param perWorkerOnCpu for a temporary: whether the CPU keeps it as one slice per worker instead
   *     (not allocated there; see the fusion pass {@code WorkerScratch})
   */
  public record Tensor(String name, String kind, String shape, boolean allocated, boolean perWorkerOnCpu) {
    /** A tensor the CPU does not keep per worker. */
    public Tensor(String name, String kind, String shape, boolean allocated) {
      this(name, kind, shape, allocated, false);
    }
  }

  /**
   * A kernel after fusion.
   *
   * @param name the generated kernel's name (a method of {@code <Class>Kernels} and a CUDA kernel)
   * @param fusedOps the ids of the calls whose work it does, in source order
   * @param grid its worker grid as text, e.g. {@code "[b < B, h < H]"}
   * @param reads tensors it reads from memory; {@code writes}: tensors it stores
   * @param leaf {@code "gemm"} when the kernel's products run as library matrix products (its other
   *     work in a fused epilogue), else null; {@code leafReason} says which products and why
   */
  public record Kernel(String name, List<String> fusedOps, String grid, List<String> reads, List<String> writes,
      String leaf, String leafReason, String split) {
    public Kernel {
      fusedOps = List.copyOf(fusedOps);
      reads = List.copyOf(reads);
      writes = List.copyOf(writes);
    }

    /** A kernel with no recorded reason for starting where it does. */
    public Kernel(String name, List<String> fusedOps, String grid, List<String> reads, List<String> writes,
        String leaf, String leafReason) {
      this(name, fusedOps, grid, reads, writes, leaf, leafReason, null);
    }

    /** A kernel that is generated code only. */
    public Kernel(String name, List<String> fusedOps, String grid, List<String> reads, List<String> writes) {
      this(name, fusedOps, grid, reads, writes, null, null);
    }
  }

  /**
   * A producer-consumer edge: {@code to} reads {@code tensor}, which {@code from} wrote.
   *
   * @param fused whether the consumer's kernel gets the value without reading the tensor from memory
   *     (recomputed inline or passed inside one kernel)
   * @param reason why, in words a user can act on
   */
  public record Edge(String from, String to, String tensor, boolean fused, String reason) {}
}
