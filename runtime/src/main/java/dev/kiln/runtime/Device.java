package dev.kiln.runtime;

/** Where generated kernels run. */
public enum Device {
  /** Generated Java kernels, split over {@link dev.kiln.runtime.cpu.CpuExecutor}'s fork-join pool. */
  CPU,
  /**
   * Generated CUDA kernels on GPU 0, through JCuda's driver API: see {@link
   * dev.kiln.runtime.cuda.CudaRuntime}. {@link Kiln#device()} picks it when the NVIDIA driver loads
   * and reports a GPU.
   */
  CUDA
}
