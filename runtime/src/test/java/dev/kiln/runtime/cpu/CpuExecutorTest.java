package dev.kiln.runtime.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@link CpuExecutor#forEachChunk}: an exception reaches the caller only after every chunk has ended. */
class CpuExecutorTest {
  @Test
  void aChunkThatThrowsReachesTheCallerAfterTheOthersEnded() {
    AtomicInteger ended = new AtomicInteger();
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> CpuExecutor.forEachChunk(8, 8,
        (chunk, lo, hi) -> {
          if (chunk == 0) {
            throw new IllegalStateException("chunk 0");
          }
          try {
            Thread.sleep(100); // the others still write the caller's arrays when chunk 0 fails
          } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
          }
          ended.incrementAndGet();
        }));
    assertEquals(true, String.valueOf(e.getMessage()).contains("chunk 0"), e.getMessage());
    assertEquals(7, ended.get(), "every other chunk had ended when the caller saw the exception");
  }

  @Test
  void eachPoolWorkerHasANameOfItsOwn() {
    java.util.Map<Thread, String> names = new java.util.concurrent.ConcurrentHashMap<>();
    for (int call = 0; call < 4; call++) {
      CpuExecutor.forEachChunk(64, 64, (chunk, lo, hi) -> {
        names.put(Thread.currentThread(), Thread.currentThread().getName());
        try {
          Thread.sleep(2); // long enough for every worker to take chunks
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
        }
      });
    }
    names.remove(Thread.currentThread()); // the caller runs chunks too
    names.values().forEach(n -> assertEquals(true, n.matches("kiln-cpu-[0-9]+"), n));
    // the names were all kiln-cpu-0 (a worker's pool index is 0 until it starts), which made
    // profiles and thread dumps show one worker where there were several
    assertEquals(names.size(), new java.util.HashSet<>(names.values()).size(), "names " + names.values());
  }

  @Test
  void theCallerRunsChunksBesideThePoolAndReturnsAfterAllEnded() {
    int chunks = 64;
    java.util.Set<Thread> runners = java.util.concurrent.ConcurrentHashMap.newKeySet();
    AtomicInteger ended = new AtomicInteger();
    int[] covered = new int[1000];
    CpuExecutor.forEachChunk(covered.length, chunks, (chunk, lo, hi) -> {
      runners.add(Thread.currentThread());
      try {
        Thread.sleep(1);
      } catch (InterruptedException ie) {
        Thread.currentThread().interrupt();
      }
      for (int i = lo; i < hi; i++) {
        covered[i]++;
      }
      ended.incrementAndGet();
    });
    assertEquals(chunks, ended.get(), "every chunk had ended when the call returned");
    for (int i = 0; i < covered.length; i++) {
      assertEquals(1, covered[i], "index " + i + " runs in exactly one chunk");
    }
    // 64 chunks of a millisecond each: the caller takes some (it starts at once; before 2026-11-29
    // it only waited, and a parked worker could leave a short call to a single thread)
    assertEquals(true, runners.contains(Thread.currentThread()), "the caller ran chunks: " + runners);
  }

  @Test
  void eachThreadRunsARegionOfNeighbouringChunksInOrderThenTakesWhatIsLeftFromTheBack() {
    int n = 1000;
    int chunks = 37;
    java.util.Map<Thread, java.util.List<Integer>> order = new java.util.concurrent.ConcurrentHashMap<>();
    int[] runs = new int[chunks];
    CpuExecutor.forEachChunk(n, chunks, (chunk, lo, hi) -> {
      assertEquals((int) ((long) n * chunk / chunks), lo, "chunk " + chunk + "'s start");
      assertEquals((int) ((long) n * (chunk + 1) / chunks), hi, "chunk " + chunk + "'s end");
      order.computeIfAbsent(Thread.currentThread(), t -> new java.util.concurrent.CopyOnWriteArrayList<>()).add(chunk);
      synchronized (runs) {
        runs[chunk]++;
      }
      try {
        Thread.sleep(1);
      } catch (InterruptedException ie) {
        Thread.currentThread().interrupt();
      }
    });
    for (int k = 0; k < chunks; k++) {
      assertEquals(1, runs[k], "chunk " + k + " runs once");
    }
    // the caller's region is the first: it starts at chunk 0 and runs on to the next chunk, in order
    java.util.List<Integer> callers = order.get(Thread.currentThread());
    assertEquals(0, callers.get(0), "the caller's chunks " + callers);
    int regionEnd = chunks / Math.min(chunks, CpuExecutor.threads());
    for (int i = 1; i < Math.min(callers.size(), regionEnd); i++) {
      assertEquals(callers.get(i - 1) + 1, callers.get(i), "the caller's chunks " + callers);
    }
    // every thread's chunks: an ascending run of neighbours (its region), then chunks taken from the
    // backs of the others' regions, each one before the one it took before
    for (java.util.List<Integer> mine : order.values()) {
      int i = 1;
      while (i < mine.size() && mine.get(i) == mine.get(i - 1) + 1) {
        i++;
      }
      for (int j = i + 1; j < mine.size(); j++) {
        if (mine.get(j) > mine.get(j - 1)) {
          // a later region's back comes after an earlier region's: only where the thread moved on to another region
          assertEquals(true, CpuExecutor.threads() > 2, "chunks of one thread " + mine);
        }
      }
    }
  }

  @Test
  void flatChunksOnlyWhenTheOuterDimensionIsTooShortForThePool() {
    int threads = CpuExecutor.threads();
    assertEquals(0, CpuExecutor.flatChunks(threads * 64, 1 << 16, 1L << 20), "enough rows for every thread");
    assertEquals(0, CpuExecutor.flatChunks(1, 1, 1L << 20), "a row of one index");
    assertEquals(0, CpuExecutor.flatChunks(1 << 16, 1 << 16, 1), "more than an int's worth of indices");
    assertEquals(0, CpuExecutor.flatChunks(1, 64, 64), "too little work for more than one chunk");
    if (threads > 1) {
      assertEquals(true, CpuExecutor.flatChunks(1, 1 << 20, 1L << 22) > 1, "one long row");
    }
  }

  @Test
  void columnChunksAreWideWhereTheThreadsAllow() {
    int threads = CpuExecutor.threads();
    long work = 1L << 20;
    int n = 2048;
    int plain = CpuExecutor.chunks(n, work);
    int wide = CpuExecutor.chunks(n, work, 1024);
    assertEquals(true, wide <= plain, "never more chunks than the plain count");
    assertEquals(Math.min(plain, Math.max(Math.min(threads, plain), 2)), wide, "2048 columns: two blocks, or a chunk a thread");
    assertEquals(Math.min(CpuExecutor.chunks(512, work), Math.min(threads, CpuExecutor.chunks(512, work))),
        CpuExecutor.chunks(512, work, 1024), "fewer columns than a block: still a chunk a thread");
    assertEquals(CpuExecutor.chunks(1 << 20, work), CpuExecutor.chunks(1 << 20, work, 1024), "many blocks: the plain count");
    assertEquals(1, CpuExecutor.chunks(1, work, 1024));
  }
}
