package dev.kiln.processor.codegen.cuda;

import dev.kiln.processor.ir.GridDim;
import java.util.List;

/**
 * What the device launcher of an operator needs to know about its CUDA kernel: its name, its
 * shape of launch, and for a reducing kernel the grid dimensions that get one block each.
 */
public record KernelInfo(String kernel, Launch launch, List<GridDim> kept) {
  /** How a kernel is launched (see {@code dev.kiln.runtime.cuda.CudaKernel}). */
  public enum Launch {
    GRID,
    REDUCING,
    MAP
  }
}
