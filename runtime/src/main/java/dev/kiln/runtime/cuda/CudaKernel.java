package dev.kiln.runtime.cuda;

import static jcuda.driver.JCudaDriver.cuLaunchKernel;

import java.util.List;
import java.util.Optional;
import jcuda.CudaException;
import jcuda.Pointer;
import jcuda.driver.CUevent;
import jcuda.driver.CUfunction;
import jcuda.driver.CUstream;

/**
 * One kernel of a generated class's module: {@link CudaDevice#kernel}. The three launch methods
 * match the three kinds of generated kernel; each picks the grid with {@link LaunchConfig}, checks
 * and marshals the arguments ({@link KernelArgs}), launches asynchronously on the given stream (null
 * means the default stream) and counts the launch in {@link CudaDevice#stats()}.
 *
 * <p>Arguments are, in the kernel's parameter order, boxed {@code Integer} (C++ {@code int}), {@code
 * Long} ({@code long long}), {@code Float}, {@code Double}, {@code Boolean} ({@code bool}) and
 * {@link DeviceArray}s (pointers). When the kernel's PTX is known, a wrong count or a wrong size is an
 * {@link IllegalArgumentException} naming the kernel and the argument.
 *
 * <p>Errors the kernel raises while running surface asynchronously, at the next synchronizing call
 * (a download, {@link CudaStream#synchronize()}, {@link CudaDevice#synchronize()}), as a {@link
 * dev.kiln.runtime.KilnException} that names the last kernel launched.
 */
public final class CudaKernel {
  private final CudaDevice device;
  private final String name;
  private final String qualifiedName;
  private final CUfunction function;
  private final List<PtxInfo.Param> params;

  CudaKernel(CudaDevice device, String resourceBase, String name, CUfunction function,
      List<PtxInfo.Param> params) {
    this.device = device;
    this.name = name;
    this.qualifiedName = resourceBase.replace('/', '.') + "." + name;
    this.function = function;
    this.params = params;
  }

  /** The kernel's name in the module. */
  public String name() {
    return name;
  }

  /** The generated class and the kernel: {@code "dev.kiln.tests.ops.Reductions.sum"}. */
  public String qualifiedName() {
    return qualifiedName;
  }

  /**
   * Launches a grid kernel.
   *
   * @param extents the sizes of its {@code @Parallel} dimensions, outermost first; nothing is
   *     launched when one is 0
   * @see LaunchConfig#grid
   */
  public void launchGrid(CudaStream stream, long[] extents, Object... args) {
    launchOrCheck(stream, LaunchConfig.grid(extents, device.limits()), args);
  }

  /**
   * Launches a reducing kernel: 1-D blocks of 256 threads, one block per kept point (at least one).
   *
   * @see LaunchConfig#reducing
   */
  public void launchReducing(CudaStream stream, long keptPoints, Object... args) {
    launch(stream, LaunchConfig.reducing(keptPoints, device.limits()), args);
  }

  /**
   * Launches a row kernel's short-row form: 1-D blocks of {@code threads} threads (whole warps, a
   * power of two of them), one block per row (at least one).
   *
   * @see LaunchConfig#rows
   */
  public void launchRows(CudaStream stream, long rows, int threads, Object... args) {
    launch(stream, LaunchConfig.rows(rows, threads, device.limits()), args);
  }

  /** The column kernels' threads a worker, read once ({@link LaunchConfig#columnThreads()}). */
  private static final int COLUMN_THREADS = LaunchConfig.columnThreads();

  /**
   * Launches a column kernel over {@code workers} workers: blocks of 32 workers x 32 threads each
   * ({@code -Dkiln.cuda.columnThreads} changes the 32 threads).
   *
   * @see LaunchConfig#columns
   */
  public void launchColumns(CudaStream stream, long workers, Object... args) {
    launch(stream, LaunchConfig.columns(workers, device.limits(), COLUMN_THREADS), args);
  }

  /**
   * Launches an elementwise map kernel over {@code n} elements; nothing when {@code n} is 0.
   *
   * @see LaunchConfig#map
   */
  public void launchMap(CudaStream stream, long n, Object... args) {
    launchOrCheck(stream, LaunchConfig.map(n, device.limits()), args);
  }

  /** Launches with an explicit grid and block, without dynamic shared memory. */
  public void launch(CudaStream stream, LaunchConfig config, Object... args) {
    Pointer parameters = KernelArgs.marshal(qualifiedName, params, args);
    CudaStream s = stream == null ? device.defaultStream() : stream;
    if (s.device() != device) {
      throw new IllegalArgumentException(
          "kernel " + qualifiedName + " cannot be launched on " + s + " of another device");
    }
    CUstream handle = s.handle();
    device.makeCurrent();
    KernelTimer timer = device.timing() ? device.timer() : null;
    try {
      CUevent start = timer == null ? null : timer.begin(handle);
      try {
        cuLaunchKernel(function, config.gridX(), config.gridY(), config.gridZ(), config.blockX(),
            config.blockY(), config.blockZ(), 0, handle, parameters, null);
      } catch (CudaException e) {
        if (start != null) {
          timer.abandon(start);
        }
        throw e;
      }
      if (start != null) {
        timer.end(qualifiedName, start, handle);
      }
    } catch (CudaException e) {
      throw CudaErrors.failure(
          device, "could not launch kernel " + qualifiedName + " with " + config + " on " + s, e);
    }
    device.launched(qualifiedName);
    device.armIndexCheck(args);
  }

  /** Launches with the config; without one, only checks the arguments, so that mistakes show early. */
  private void launchOrCheck(CudaStream stream, Optional<LaunchConfig> config, Object[] args) {
    if (config.isPresent()) {
      launch(stream, config.get(), args);
    } else {
      KernelArgs.check(qualifiedName, params, args);
    }
  }

  @Override
  public String toString() {
    return "CUDA kernel " + qualifiedName;
  }
}
