package dev.kiln.processor.codegen.cuda;

import dev.kiln.processor.ir.GridDim;
import dev.kiln.processor.ir.Param;
import java.util.List;

/**
 * What the device launcher of an operator needs to know about its CUDA kernel: its name, its
 * shape of launch, for a reducing kernel the grid dimensions that get one block each, and for
 * kernels with partial results ({@link PartialsKernelWriter}) the accumulated arrays; the arrays read
 * at data-dependent indices, whose lengths and the device's index-error flag the kernel takes last
 * ({@link CheckedReads}); for a grid kernel, the workers each thread takes ({@code lanes}: 4 for a
 * {@link VectorKernelWriter vector kernel}, else 1), by which the launcher divides its extent.
 */
public record KernelInfo(String kernel, Launch launch, List<GridDim> kept, List<Param.Array> partials,
    List<Param.Array> checkedReads, int lanes, ShortRows shortRows) {
  KernelInfo(String kernel, Launch launch, List<GridDim> kept) {
    this(kernel, launch, kept, List.of(), List.of());
  }

  KernelInfo(String kernel, Launch launch, List<GridDim> kept, List<Param.Array> partials,
      List<Param.Array> checkedReads) {
    this(kernel, launch, kept, partials, checkedReads, 1, null);
  }

  /**
   * A row kernel's short-row form ({@link RowKernelWriter#SHORT_THREADS}): the kernel to launch, with
   * {@code threads} threads a row, when the row, {@code hi - lo} (each a literal or an {@code int}
   * parameter's name), is at most {@code maxLength} long.
   */
  public record ShortRows(String kernel, String lo, String hi, int maxLength, int threads) {}

  /** How a kernel is launched (see {@code dev.kiln.runtime.cuda.CudaKernel}). */
  public enum Launch {
    GRID,
    REDUCING,
    /** One block a worker ({@link RowKernelWriter}): launched as a reducing kernel over the workers. */
    ROWS,
    /** 32 workers a block, 32 threads a worker ({@link RowKernelWriter}): {@code launchColumns} over the workers. */
    COLUMNS,
    MAP,
    /** {@code <op>_partials} over chunks of workers, then {@code <op>_fold} over the outputs' elements. */
    PARTIALS
  }
}
