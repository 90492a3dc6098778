package dev.kiln.runtime.cpu;

import dev.kiln.runtime.simd.Simd;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs generated CPU kernels: a grid's outermost parallel dimension is cut into chunks that the
 * calling thread and a pool's workers run, when the grid holds enough work to pay for it.
 *
 * <p>System properties, read once: {@code kiln.cpu.threads} (pool size, default the number of
 * processors) and {@code kiln.cpu.grain} (the least work, in worker-steps, worth a task of its own,
 * default 32768).
 */
public final class CpuExecutor {
  /** The property that sets the pool size. */
  public static final String THREADS_PROPERTY = "kiln.cpu.threads";

  /** The property that sets the least work worth a separate task. */
  public static final String GRAIN_PROPERTY = "kiln.cpu.grain";

  private static final int THREADS =
      positive(THREADS_PROPERTY, Runtime.getRuntime().availableProcessors());
  private static final long GRAIN = positive(GRAIN_PROPERTY, 32_768);
  private static final int CHUNKS_PER_THREAD = 4;

  private static volatile ForkJoinPool pool;

  /** Workers created so far, which number their names (kiln-cpu-0, kiln-cpu-1, ...). */
  private static final AtomicInteger WORKERS_NAMED = new AtomicInteger();

  private CpuExecutor() {}

  /** A range of the outermost grid dimension, {@code [lo, hi)}, that one task runs. */
  @FunctionalInterface
  public interface ChunkBody {
    void run(int chunk, int lo, int hi);
  }

  /** The pool size. */
  public static int threads() {
    return THREADS;
  }

  /**
   * How many chunks to cut {@code n} outer indices into, each costing about {@code workPerIndex}:
   * one when the whole grid is smaller than the grain or only one thread is configured.
   */
  public static int chunks(int n, long workPerIndex) {
    if (n <= 1 || THREADS == 1) {
      return 1;
    }
    long total = (long) n * Math.max(1, workPerIndex);
    long byGrain = total / GRAIN;
    long chunks = Math.min(Math.min(byGrain, (long) THREADS * CHUNKS_PER_THREAD), n);
    return (int) Math.max(1, chunks);
  }

  /**
   * As {@link #chunks(int, long)}, but with no chunk narrower than {@code minimumWidth} indices
   * where fewer chunks still give every thread one: for kernels whose workers each walk a column
   * (rows outermost over blocks of columns), where a narrow chunk reads each row in short pieces
   * a page apart, which the hardware's prefetchers follow badly.
   */
  public static int chunks(int n, long workPerIndex, int minimumWidth) {
    int chunks = chunks(n, workPerIndex);
    long wide = Math.max(Math.min(THREADS, chunks), (n + (long) minimumWidth - 1) / Math.max(1, minimumWidth));
    return (int) Math.min(chunks, wide);
  }

  /**
   * For a grid whose outermost dimension ({@code outer} indices, {@code workPerOuter} each) is too
   * short to give every thread a chunk: how many chunks to cut the flattened grid of its two
   * outermost dimensions ({@code outer x inner} indices) into, or 0 when that gives no more chunks
   * than the outer dimension alone (or the flattened count does not fit an {@code int}).
   */
  public static int flatChunks(int outer, int inner, long workPerOuter) {
    int byOuter = chunks(outer, workPerOuter);
    if (byOuter >= THREADS || inner <= 1 || outer < 1) {
      return 0;
    }
    long flat = (long) outer * inner;
    if (flat > Integer.MAX_VALUE) {
      return 0;
    }
    int byFlat = chunks((int) flat, Math.max(1, workPerOuter / inner));
    return byFlat > byOuter ? byFlat : 0;
  }

  /**
   * Runs {@code body} over {@code [0, n)} cut into {@code chunks} contiguous ranges, chunk {@code
   * k} being {@code [n*k/chunks, n*(k+1)/chunks)}. The caller's thread runs chunks too, with up to
   * {@code threads() - 1} pool workers, and the call returns once every chunk has ended. The chunks
   * are dealt out in as many contiguous regions as there are threads: each thread runs its own
   * region's chunks in order, from its front, so that it reads and writes one stream of rows, then
   * takes the chunks still left in the others' regions from their backs. A worker that starts late
   * finds its region taken and never touches the arrays. (Before, every thread took the next chunk
   * from one shared counter, so the threads ran neighbouring chunks and each jumped ahead at every
   * chunk: layer norm's SIMD kernel over 2048x2048 in eight chunks on two threads took 0.41-0.44 ms
   * so against 0.37-0.40 in two regions, in a harness; in JMH through its launcher 0.51-0.56 against
   * 0.56-0.58, other kernels the same. Before that, the caller handed the whole range to the pool
   * and waited: a parked worker woke too late for a call of a millisecond or so, and on a 2-core AMD
   * EPYC about one call in three ran on a single worker at half speed.) Which thread runs a chunk
   * never changes the chunk's range or index, so per-chunk partial results are the same.
   */
  public static void forEachChunk(int n, int chunks, ChunkBody body) {
    if (chunks <= 1) {
      body.run(0, 0, n);
      return;
    }
    int threads = Math.min(chunks, THREADS);
    SharedChunks shared = new SharedChunks(n, chunks, threads, body);
    ForkJoinPool p = pool();
    for (int h = threads - 1; h > 0; h--) {
      p.execute(shared::runChunks);
    }
    shared.runChunks();
    shared.awaitAndRethrow();
  }

  /** Runs {@code body} over {@code [0, n)}, in parallel when the work is large enough. */
  public static void parallelFor(int n, long workPerIndex, ChunkBody body) {
    forEachChunk(n, chunks(n, workPerIndex), body);
  }

  /**
   * As {@link #forEachChunk(int, int, ChunkBody)} for a generated kernel: an index out of bounds in
   * any chunk, on any thread, reaches the caller as an {@link ArrayIndexOutOfBoundsException}
   * whose message names {@code kernel} (the operator and its source line) and keeps the array's
   * own message, scalar and SIMD kernels alike (a vector load throws the superclass).
   */
  public static void forEachChunk(String kernel, int n, int chunks, ChunkBody body) {
    forEachChunk(kernel, n, chunks, body, null);
  }

  /**
   * As {@link #forEachChunk(String, int, int, ChunkBody)} for a SIMD kernel {@code body} with its
   * scalar twin {@code exact}: a chunk whose vector code goes out of bounds is run again by {@code
   * exact}, so that the exception is the one the plain method throws, at the same index (a vector
   * load reports its first lane and a shortened length). After an exception, as after the plain
   * method's, the outputs are partly written; which elements, and for a call whose output is also
   * one of its inputs which values, may differ from what the plain method leaves.
   */
  public static void forEachChunk(String kernel, int n, int chunks, ChunkBody body, ChunkBody exact) {
    ChunkBody named = (chunk, lo, hi) -> {
      try {
        body.run(chunk, lo, hi);
      } catch (KernelIndexOutOfBoundsException e) {
        throw e;
      } catch (IndexOutOfBoundsException e) {
        if (exact != null) {
          try {
            exact.run(chunk, lo, hi);
          } catch (IndexOutOfBoundsException scalar) {
            throw new KernelIndexOutOfBoundsException(kernel, scalar);
          }
        }
        throw new KernelIndexOutOfBoundsException(kernel, e);
      }
    };
    forEachChunk(n, chunks, named); // rethrows the chunk's own exception, not a copy
  }

  /**
   * As {@link #forEachChunk(String, int, int, ChunkBody, ChunkBody)} for a SIMD form {@code simd}
   * that computes the same floats as its scalar twin {@code scalar} at every index: which form runs
   * which chunk is {@link SimdChoice}'s (the scalar form until the SIMD form, compiled by the JIT,
   * measures faster), unless {@code -Dkiln.simd=always}. Either way the same results.
   */
  public static void forEachChunkChoosing(String kernel, int n, int chunks, ChunkBody simd, ChunkBody scalar) {
    forEachChunkChoosing(kernel, n, chunks, simd, scalar, SimdChoice.PIECE_INDICES);
  }

  /**
   * As {@link #forEachChunkChoosing(String, int, int, ChunkBody, ChunkBody)}, where a call of the
   * SIMD form while it is measured takes at least {@code minimumPiece} indices where the share
   * allows (1 where an index is a row; 4 for a row kernel whose SIMD form runs rows four at a time;
   * 64 where the indices are the SIMD form's lanes, so that a call reaches its vector loop).
   */
  public static void forEachChunkChoosing(String kernel, int n, int chunks, ChunkBody simd, ChunkBody scalar,
      int minimumPiece) {
    if (Simd.ALWAYS) {
      forEachChunk(kernel, n, chunks, simd, scalar);
      return;
    }
    SimdChoice choice = SimdChoice.of(simd.getClass(), kernel);
    switch (choice.form()) {
      case SIMD -> forEachChunk(kernel, n, chunks, simd, scalar);
      case SCALAR -> forEachChunk(kernel, n, chunks, scalar);
      default -> forEachChunk(kernel, n, chunks, choice.trial(simd, scalar, minimumPiece), scalar);
    }
  }

  /**
   * Each kernel's choice between its SIMD and scalar forms so far, in this JVM (kernel to a line
   * saying which form runs and on what measurement; see {@link #forEachChunkChoosing}): empty
   * before any kernel with a SIMD form ran, or with {@code -Dkiln.simd=always} or {@code false}.
   */
  public static java.util.Map<String, String> simdChoices() {
    return SimdChoice.all();
  }

  /** As {@link #parallelFor(int, long, ChunkBody)} for a generated kernel named {@code kernel}; see {@link #forEachChunk(String, int, int, ChunkBody)}. */
  public static void parallelFor(String kernel, int n, long workPerIndex, ChunkBody body) {
    forEachChunk(kernel, n, chunks(n, workPerIndex), body);
  }

  /** An index out of bounds in a generated kernel, named. */
  public static final class KernelIndexOutOfBoundsException extends ArrayIndexOutOfBoundsException {
    private static final long serialVersionUID = 1L;

    KernelIndexOutOfBoundsException(String kernel, IndexOutOfBoundsException cause) {
      super(kernel + ": " + (cause.getMessage() != null ? cause.getMessage()
          // HotSpot throws a preallocated exception without a message from code that has thrown often
          : "an index out of bounds (the JVM left out which: it omits the details of exceptions thrown often"
              + " from the same code; run with -XX:-OmitStackTraceInFastThrow to see them)")
          + " (an array read or write outside its bounds; the operator's plain Java method does the same on"
          + " these arguments and throws there too)");
      initCause(cause);
    }
  }

  private static ForkJoinPool pool() {
    ForkJoinPool p = pool;
    if (p == null) {
      synchronized (CpuExecutor.class) {
        p = pool;
        if (p == null) {
          p = new ForkJoinPool(THREADS, CpuExecutor::newThread, null, false);
          pool = p;
        }
      }
    }
    return p;
  }

  private static java.util.concurrent.ForkJoinWorkerThread newThread(ForkJoinPool p) {
    java.util.concurrent.ForkJoinWorkerThread t =
        ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(p);
    // not getPoolIndex(): a worker registers with its pool when it starts, so here every one is 0
    t.setName("kiln-cpu-" + WORKERS_NAMED.getAndIncrement());
    t.setDaemon(true);
    return t;
  }

  private static long positive(String property, long fallback) {
    String text = System.getProperty(property);
    if (text == null || text.isBlank()) {
      return fallback;
    }
    try {
      long value = Long.parseLong(text.trim());
      if (value < 1) {
        throw new NumberFormatException();
      }
      return value;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "-D" + property + "=" + text + " must be a positive integer", e);
    }
  }

  private static int positive(String property, int fallback) {
    return (int) Math.min(Integer.MAX_VALUE, positive(property, (long) fallback));
  }

  /**
   * The chunks of one call, in contiguous regions (one a thread) whose bounds, front and back, are
   * packed into one {@code long} each: a thread takes its own region's chunks from the front and the
   * others' from the back, each chunk once. The first exception (later ones suppressed into it) is
   * rethrown to the caller after every chunk has ended, so that no chunk still writes the caller's
   * arrays (or a composite's pooled temporaries) when it sees the failure.
   */
  private static final class SharedChunks {
    private final int n;
    private final int chunks;
    private final ChunkBody body;
    private final AtomicLong[] regions;
    private final AtomicInteger joined = new AtomicInteger();
    private final CountDownLatch ended;
    private final AtomicReference<Throwable> failure =
        new AtomicReference<>();

    SharedChunks(int n, int chunks, int threads, ChunkBody body) {
      this.n = n;
      this.chunks = chunks;
      this.body = body;
      this.regions = new AtomicLong[threads];
      for (int r = 0; r < threads; r++) {
        regions[r] = new AtomicLong(pack((int) ((long) chunks * r / threads), (int) ((long) chunks * (r + 1) / threads)));
      }
      this.ended = new CountDownLatch(chunks);
    }

    private static long pack(int front, int back) {
      return ((long) front << 32) | (back & 0xFFFF_FFFFL);
    }

    /** The first chunk left in {@code region} ({@code fromFront}) or its last, taken; -1 when none is left. */
    private static int take(AtomicLong region, boolean fromFront) {
      while (true) {
        long v = region.get();
        int front = (int) (v >>> 32);
        int back = (int) v;
        if (front >= back) {
          return -1;
        }
        if (region.compareAndSet(v, fromFront ? pack(front + 1, back) : pack(front, back - 1))) {
          return fromFront ? front : back - 1;
        }
      }
    }

    void runChunks() {
      int mine = joined.getAndIncrement() % regions.length;
      for (int k = take(regions[mine], true); k >= 0; k = take(regions[mine], true)) {
        run(k);
      }
      for (int i = 1; i < regions.length; i++) {
        AtomicLong other = regions[(mine + i) % regions.length];
        for (int k = take(other, false); k >= 0; k = take(other, false)) {
          run(k);
        }
      }
    }

    private void run(int k) {
      int lo = (int) ((long) n * k / chunks);
      int hi = (int) ((long) n * (k + 1) / chunks);
      try {
        body.run(k, lo, hi);
      } catch (Throwable t) {
        if (!failure.compareAndSet(null, t) && failure.get() != t) {
          failure.get().addSuppressed(t); // Throwable.addSuppressed is synchronized
        }
      } finally {
        ended.countDown();
      }
    }

    void awaitAndRethrow() {
      boolean interrupted = false;
      while (true) {
        try {
          ended.await();
          break;
        } catch (InterruptedException e) {
          interrupted = true; // the chunks still write the caller's arrays: wait for them all the same
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
      Throwable t = failure.get();
      if (t instanceof RuntimeException e) {
        throw e;
      }
      if (t instanceof Error e) {
        throw e;
      }
      if (t != null) {
        throw new IllegalStateException(t);
      }
    }
  }
}
