package dev.kiln.runtime;

/** Where generated kernels run. */
public enum Device {
  /** Generated Java kernels, split over {@link dev.kiln.runtime.cpu.CpuExecutor}'s fork-join pool. */
  CPU,
  /** Generated CUDA kernels through JCuda. Not built yet: see the README's status table. */
  CUDA
}
