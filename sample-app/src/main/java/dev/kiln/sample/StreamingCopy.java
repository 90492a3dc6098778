package dev.kiln.sample;

import dev.kiln.runtime.cpu.CpuExecutor;

/**
 * The machine's bandwidth reference: {@link System#arraycopy} moving a given number of bytes (half
 * read, half written), on one thread and cut over the kernels' thread pool.
 */
final class StreamingCopy {
  private final byte[] src;
  private final byte[] dst;

  /** Beyond this many bytes per array, a copy runs at memory bandwidth anyway. */
  private static final int MAX_ARRAY = 1 << 27;

  /**
   * A copy that reads and writes {@code bytes} in all (rounded down to an even count, and at most
   * 2 x 128 MiB).
   */
  StreamingCopy(long bytes) {
    int n = (int) Math.max(1, Math.min(MAX_ARRAY, bytes / 2));
    src = new byte[n];
    dst = new byte[n];
    java.util.Arrays.fill(src, (byte) 1);
  }

  void oneThread() {
    System.arraycopy(src, 0, dst, 0, src.length);
  }

  void allThreads() {
    CpuExecutor.forEachChunk(src.length, CpuExecutor.threads(),
        (chunk, lo, hi) -> System.arraycopy(src, lo, dst, lo, hi - lo));
  }
}
