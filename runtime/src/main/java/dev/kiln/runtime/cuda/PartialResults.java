package dev.kiln.runtime.cuda;

/**
 * How many chunks of workers a kernel with partial results uses: a generated {@code <op>_partials}
 * kernel gives each chunk a private copy of the operator's {@code @Reduce} outputs, and {@code
 * <op>_fold} folds the copies in chunk order. The count depends on the sizes alone, so the result
 * is the same bits on every run and every GPU. Pure arithmetic, tested without a GPU.
 */
public final class PartialResults {
  /** At most this many chunks: the parallelism of the partials kernel, and the fold's loop length. */
  public static final long MAX_CHUNKS = 4096;

  /** At most this many partial elements in all (64 MiB of floats). */
  public static final long MAX_ELEMENTS = 1L << 24;

  private PartialResults() {}

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
