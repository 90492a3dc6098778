package dev.kiln.runtime.cuda;

/**
 * How a reduction on CUDA is split, from the sizes alone, so that a result is the same bits on every
 * run and every GPU. {@link #chunks}: how many chunks of workers a kernel with partial results uses
 * (a generated {@code <op>_partials} kernel gives each chunk a private copy of the operator's {@code
 * @Reduce} outputs, and {@code <op>_fold} folds the copies in chunk order). {@link #segments}: into
 * how many blocks a reducing kernel splits each output element's reduction. Pure arithmetic,
 * tested without a GPU.
 */
public final class PartialResults {
  /** At most this many chunks: the parallelism of the partials kernel, and the fold's loop length. */
  public static final long MAX_CHUNKS = 4096;

  /** At most this many partial elements in all (64 MiB of floats). */
  public static final long MAX_ELEMENTS = 1L << 24;

  /**
   * The system property that sets how many reduced points a block of a segmented reduction takes at
   * least ({@link #segments}); default {@value #DEFAULT_SEGMENT_WORK}. Tests lower it to split small
   * reductions. Read once.
   */
  public static final String SEGMENT_WORK_PROPERTY = "kiln.cuda.reduceSegmentWork";

  /** The default of {@link #SEGMENT_WORK_PROPERTY}: 8 points a thread of a 256-thread block. */
  public static final long DEFAULT_SEGMENT_WORK = 2048;

  /** Segmented reductions aim at this many blocks in all. */
  public static final long TARGET_BLOCKS = 2048;

  /** At most this many segments a kept point. */
  public static final long MAX_SEGMENTS = 1024;

  private static final long SEGMENT_WORK = Math.max(1, Long.getLong(SEGMENT_WORK_PROPERTY, DEFAULT_SEGMENT_WORK));

  private PartialResults() {}

  /**
   * Into how many segments a reducing kernel splits each kept point's reduced points (each segment
   * one block, the blocks' totals folded in segment order by {@code <op>_fold}): 1 when there are
   * {@link #TARGET_BLOCKS} kept points or more, else enough to reach about that many blocks, as long
   * as each block keeps at least {@link #SEGMENT_WORK_PROPERTY} points; at most {@link
   * #MAX_SEGMENTS}. From the sizes alone, so the same sizes always give the same bits.
   *
   * @throws IllegalArgumentException when either count is negative
   */
  public static long segments(long keptPoints, long reducedPoints) {
    if (keptPoints < 0 || reducedPoints < 0) {
      throw new IllegalArgumentException(
          "negative kept (" + keptPoints + ") or reduced (" + reducedPoints + ") points");
    }
    if (keptPoints >= TARGET_BLOCKS || keptPoints == 0 || reducedPoints == 0) {
      return 1;
    }
    long byWork = reducedPoints / SEGMENT_WORK;
    long byBlocks = (TARGET_BLOCKS + Math.max(1, keptPoints) - 1) / Math.max(1, keptPoints);
    return Math.max(1, Math.min(Math.min(byWork, byBlocks), MAX_SEGMENTS));
  }

  /**
   * The number of chunks: one a worker up to {@link #MAX_CHUNKS}, fewer when the copies would pass
   * {@link #MAX_ELEMENTS}; at least 1.
   *
   * @param workers the points of the operator's grid
   * @param elementsPerChunk the total length of its {@code @Reduce} outputs
   * @throws IllegalArgumentException when either is negative
   */
  public static long chunks(long workers, long elementsPerChunk) {
    if (workers < 0 || elementsPerChunk < 0) {
      throw new IllegalArgumentException(
          "negative workers (" + workers + ") or elements a chunk (" + elementsPerChunk + ")");
    }
    long byMemory = Math.max(1, MAX_ELEMENTS / Math.max(1, elementsPerChunk));
    return Math.max(1, Math.min(Math.min(workers, MAX_CHUNKS), byMemory));
  }
}
