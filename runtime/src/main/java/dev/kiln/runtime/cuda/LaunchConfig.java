package dev.kiln.runtime.cuda;

import java.util.Optional;

/**
 * The grid and block sizes of one kernel launch, and the rules that pick them. Pure arithmetic: no
 * CUDA call, so it is tested without a GPU.
 *
 * <p>Generated kernels walk every dimension with a grid-stride loop ({@code kiln/index.cuh}), so
 * any grid covers any extent; the rules below only choose a grid that fills the GPU, and cap it at
 * the device's launch limits.
 *
 * <ul>
 *   <li>{@link #grid grid kernels}: the innermost {@code @Parallel} extent on x, the next on y, the
 *       product of the others on z. 1-D: blocks of 256 threads. 2-D and more: 256-thread blocks
 *       shaped to the extents, {@code (32, 8, 1)} for large ones; a small inner extent gives its
 *       unused threads to y, then z (extents {@code (1000000, 3)} get {@code (4, 64, 1)}), so no
 *       block is mostly idle. No extents at all (a kernel without {@code @Parallel} loops): one
 *       thread.
 *   <li>{@link #reducing reducing kernels}: 1-D blocks of 256 threads, one block per kept point;
 *       a row kernel's short-row form ({@link #rows}) the same with the threads it asks for.
 *   <li>{@link #map map kernels}: 1-D, 256 threads a block.
 * </ul>
 *
 * @param gridX blocks along x
 * @param gridY blocks along y
 * @param gridZ blocks along z
 * @param blockX threads a block along x
 * @param blockY threads a block along y
 * @param blockZ threads a block along z
 */
public record LaunchConfig(int gridX, int gridY, int gridZ, int blockX, int blockY, int blockZ) {

  /** Threads a block for every kernel kind (at most {@code KILN_MAX_BLOCK}, 1024). */
  public static final int BLOCK_THREADS = 256;

  /** The largest block extent along z that CUDA allows. */
  static final int MAX_BLOCK_Z = 64;

  /** Checks that every size is at least 1. */
  public LaunchConfig {
    if (gridX < 1 || gridY < 1 || gridZ < 1 || blockX < 1 || blockY < 1 || blockZ < 1) {
      throw new IllegalArgumentException("every grid and block size must be at least 1: "
          + describe(gridX, gridY, gridZ, blockX, blockY, blockZ));
    }
  }

  /**
   * A device's largest grid along each axis ({@code CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_*}).
   *
   * @param maxGridX at most {@code 2^31 - 1}
   * @param maxGridY at most {@code 2^31 - 1}
   * @param maxGridZ at most {@code 2^31 - 1}
   */
  public record Limits(int maxGridX, int maxGridY, int maxGridZ) {
    /** The limits of every GPU since compute capability 3.0. */
    public static final Limits DEFAULT = new Limits(Integer.MAX_VALUE, 65535, 65535);

    /** Checks that every limit is at least 1. */
    public Limits {
      if (maxGridX < 1 || maxGridY < 1 || maxGridZ < 1) {
        throw new IllegalArgumentException(
            "grid limits must be at least 1: " + maxGridX + ", " + maxGridY + ", " + maxGridZ);
      }
    }
  }

  /**
   * The launch of a grid kernel.
   *
   * @param extents the sizes of the kernel's {@code @Parallel} dimensions, outermost first
   * @return empty when an extent is 0: there is nothing to run
   * @throws IllegalArgumentException when an extent is negative
   */
  public static Optional<LaunchConfig> grid(long[] extents, Limits limits) {
    if (extents == null) {
      throw new IllegalArgumentException("the extents are null");
    }
    for (int i = 0; i < extents.length; i++) {
      if (extents[i] < 0) {
        throw new IllegalArgumentException("extent " + i + " is negative: " + extents[i]);
      }
      if (extents[i] == 0) {
        return Optional.empty();
      }
    }
    int k = extents.length;
    if (k == 0) {
      return Optional.of(new LaunchConfig(1, 1, 1, 1, 1, 1));
    }
    long x = extents[k - 1];
    if (k == 1) {
      return Optional.of(
          new LaunchConfig(blocks(x, BLOCK_THREADS, limits.maxGridX()), 1, 1, BLOCK_THREADS, 1, 1));
    }
    long y = extents[k - 2];
    long z = 1;
    for (int i = 0; i < k - 2; i++) {
      z = saturatingMultiply(z, extents[i]);
    }
    int by = (int) Math.min(8, ceilPowerOfTwo(y));
    int bx = (int) Math.min(BLOCK_THREADS / by, ceilPowerOfTwo(x));
    int spare = BLOCK_THREADS / (bx * by);
    if (spare > 1 && y > by) {
      by = (int) Math.min((long) by * spare, ceilPowerOfTwo(y));
      spare = BLOCK_THREADS / (bx * by);
    }
    int bz = (int) Math.min(Math.min(spare, MAX_BLOCK_Z), ceilPowerOfTwo(z));
    return Optional.of(new LaunchConfig(
        blocks(x, bx, limits.maxGridX()), blocks(y, by, limits.maxGridY()),
        blocks(z, bz, limits.maxGridZ()), bx, by, bz));
  }

  /**
   * The launch of a reducing kernel: one 256-thread block per kept point (an output element), at
   * least one block, at most {@code maxGridX}; the kernel strides over the rest.
   *
   * @throws IllegalArgumentException when {@code keptPoints} is negative
   */
  public static LaunchConfig reducing(long keptPoints, Limits limits) {
    if (keptPoints < 0) {
      throw new IllegalArgumentException("the number of kept points is negative: " + keptPoints);
    }
    return blockEach(keptPoints, BLOCK_THREADS, limits);
  }

  /** One 1-D block of {@code threads} a point, at least one block, at most {@code maxGridX}. */
  private static LaunchConfig blockEach(long points, int threads, Limits limits) {
    int grid = (int) Math.max(1, Math.min(points, limits.maxGridX()));
    return new LaunchConfig(grid, 1, 1, threads, 1, 1);
  }

  /**
   * The launch of a row kernel's short-row form: one block of {@code threads} threads per row, at
   * least one block, at most {@code maxGridX}; the kernel strides over the rest.
   *
   * @throws IllegalArgumentException when {@code rows} is negative, or {@code threads} is not 32,
   *     64, ..., 1024 (the form's 32-slot reduction arrays take a slot a warp)
   */
  public static LaunchConfig rows(long rows, int threads, Limits limits) {
    if (rows < 0) {
      throw new IllegalArgumentException("the number of rows is negative: " + rows);
    }
    if (threads < 32 || threads > 1024 || Integer.bitCount(threads) != 1) {
      throw new IllegalArgumentException("a short-row kernel's threads a row must be 32, 64, ..., 1024: " + threads);
    }
    return blockEach(rows, threads, limits);
  }

  /** Workers a block of a column kernel: along x, neighbouring workers (coalesced reads). */
  public static final int COLUMN_WORKERS = 32;

  /** Threads a worker in a column kernel: along y, sharing the worker's loops. */
  public static final int COLUMN_THREADS = 32;

  /**
   * {@code -Dkiln.cuda.columnThreads=n}: threads a worker in a column kernel instead of {@link
   * #COLUMN_THREADS}, a power of two from 1 to 32 (the results' bits depend on it, as a reducing
   * kernel's on its block size). The emulated driver's tests run one pass with 8.
   */
  public static final String COLUMN_THREADS_PROPERTY = "kiln.cuda.columnThreads";

  /** The column kernels' threads a worker: {@link #COLUMN_THREADS_PROPERTY} or {@link #COLUMN_THREADS}. */
  public static int columnThreads() {
    int n = Integer.getInteger(COLUMN_THREADS_PROPERTY, COLUMN_THREADS);
    if (n < 1 || n > COLUMN_THREADS || Integer.bitCount(n) != 1) {
      throw new IllegalArgumentException("-D" + COLUMN_THREADS_PROPERTY + "=" + n
          + ": a column kernel's threads a worker must be a power of two from 1 to " + COLUMN_THREADS);
    }
    return n;
  }

  /**
   * The launch of a column kernel: blocks of {@link #COLUMN_WORKERS} x {@link #COLUMN_THREADS}
   * threads, a worker per column of threads, at least one block, at most {@code maxGridX}; the
   * kernel strides over the rest.
   *
   * @throws IllegalArgumentException when {@code workers} is negative
   */
  public static LaunchConfig columns(long workers, Limits limits) {
    return columns(workers, limits, COLUMN_THREADS);
  }

  /** As {@link #columns(long, Limits)}, with {@code threads} threads a worker. */
  public static LaunchConfig columns(long workers, Limits limits, int threads) {
    if (workers < 0) {
      throw new IllegalArgumentException("the number of workers is negative: " + workers);
    }
    long blocks = (workers + COLUMN_WORKERS - 1) / COLUMN_WORKERS;
    int grid = (int) Math.max(1, Math.min(blocks, limits.maxGridX()));
    return new LaunchConfig(grid, 1, 1, COLUMN_WORKERS, threads, 1);
  }

  /**
   * The launch of an elementwise map kernel over {@code n} elements.
   *
   * @return empty when {@code n} is 0
   * @throws IllegalArgumentException when {@code n} is negative
   */
  public static Optional<LaunchConfig> map(long n, Limits limits) {
    if (n < 0) {
      throw new IllegalArgumentException("the element count is negative: " + n);
    }
    if (n == 0) {
      return Optional.empty();
    }
    return Optional.of(
        new LaunchConfig(blocks(n, BLOCK_THREADS, limits.maxGridX()), 1, 1, BLOCK_THREADS, 1, 1));
  }

  /** Threads a block. */
  public int blockThreads() {
    return blockX * blockY * blockZ;
  }

  /** Blocks in the grid. */
  public long blocks() {
    return (long) gridX * gridY * gridZ;
  }

  /** Threads in the whole launch. */
  public long threads() {
    return blocks() * blockThreads();
  }

  /** For messages: {@code "grid (4, 1, 1) x block (256, 1, 1)"}. */
  @Override
  public String toString() {
    return describe(gridX, gridY, gridZ, blockX, blockY, blockZ);
  }

  private static String describe(int gx, int gy, int gz, int bx, int by, int bz) {
    return "grid (" + gx + ", " + gy + ", " + gz + ") x block (" + bx + ", " + by + ", " + bz + ")";
  }

  /** {@code ceil(extent / block)}, capped at {@code max}; extent and block are positive. */
  static int blocks(long extent, int block, int max) {
    long n = extent / block + (extent % block == 0 ? 0 : 1);
    return (int) Math.min(n, max);
  }

  /** The smallest power of two at least {@code n} (n >= 1), saturating at 2^62. */
  static long ceilPowerOfTwo(long n) {
    if (n > (1L << 62)) {
      return 1L << 62;
    }
    long highest = Long.highestOneBit(n);
    return highest == n ? n : highest << 1;
  }

  private static long saturatingMultiply(long a, long b) {
    long high = Math.multiplyHigh(a, b);
    long low = a * b;
    return high != 0 || low < 0 ? Long.MAX_VALUE : low;
  }
}
