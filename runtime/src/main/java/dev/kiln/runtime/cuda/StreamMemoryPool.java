package dev.kiln.runtime.cuda;

import dev.kiln.runtime.KilnException;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import jcuda.driver.CUdeviceptr;

/**
 * Device memory for one stream's temporaries, kept for reuse: what a launcher allocates for the
 * work it enqueues (a composite's fused temporaries, a matrix product's buffer, a reduction's
 * partial totals) goes back here when the launcher closes it, right after enqueueing, and the next
 * temporary of the same size on the same stream takes it. That is safe without waiting: the stream
 * runs its work in order, so whatever later takes the memory runs after everything that used it.
 * Only the stream that released a block takes it again (work on another stream could overlap).
 *
 * <p>So launchers return without synchronising and without a {@code cuMemAlloc}/{@code cuMemFree}
 * pair a call (each of which waits for the device): PyTorch's caching allocator does the same per
 * stream. At most {@link #MAX_CACHED_FRACTION} of the device's memory stays cached a stream; a
 * failed allocation frees the cache and tries once more; {@link CudaStream#close()} frees it.
 * Copies and zero-fills go to the device's own {@link MemoryOps}, unchanged.
 */
final class StreamMemoryPool implements MemoryOps {
  /** The share of the device's memory a stream may keep cached. */
  static final double MAX_CACHED_FRACTION = 1.0 / 8;

  private final MemoryOps device;
  private final long maxCached;
  private final Map<Long, ArrayDeque<CUdeviceptr>> free = new HashMap<>();
  private long cached;
  private boolean closed;

  StreamMemoryPool(MemoryOps device, long deviceBytes) {
    this.device = device;
    this.maxCached = (long) (deviceBytes * MAX_CACHED_FRACTION);
  }

  @Override
  public CUdeviceptr allocate(long bytes, String what) {
    synchronized (this) {
      ArrayDeque<CUdeviceptr> blocks = free.get(bytes);
      if (blocks != null && !blocks.isEmpty()) {
        cached -= bytes;
        return blocks.pop();
      }
    }
    try {
      return device.allocate(bytes, what);
    } catch (KilnException outOfMemory) {
      if (release() == 0) {
        throw outOfMemory;
      }
      return device.allocate(bytes, what);
    }
  }

  @Override
  public void free(CUdeviceptr pointer, long bytes, String what) {
    synchronized (this) {
      if (!closed && cached + bytes <= maxCached) {
        free.computeIfAbsent(bytes, b -> new ArrayDeque<>()).push(pointer);
        cached += bytes;
        return;
      }
    }
    device.free(pointer, bytes, what);
  }

  /** Frees every cached block; returns the bytes freed. */
  long release() {
    Map<Long, ArrayDeque<CUdeviceptr>> blocks;
    synchronized (this) {
      blocks = new HashMap<>(free);
      free.clear();
      cached = 0;
    }
    long freed = 0;
    for (Map.Entry<Long, ArrayDeque<CUdeviceptr>> e : blocks.entrySet()) {
      for (CUdeviceptr p : e.getValue()) {
        device.free(p, e.getKey(), "a cached temporary of " + CudaErrors.bytes(e.getKey()));
        freed += e.getKey();
      }
    }
    return freed;
  }

  /** Frees the cache; blocks released later are freed at once. */
  void close() {
    synchronized (this) {
      closed = true;
    }
    release();
  }

  /** Bytes cached now. */
  synchronized long cachedBytes() {
    return cached;
  }

  @Override
  public void copyToDevice(CUdeviceptr destination, Object hostSource, long bytes, String what) {
    device.copyToDevice(destination, hostSource, bytes, what);
  }

  @Override
  public void copyToHost(Object hostDestination, CUdeviceptr source, long bytes, String what) {
    device.copyToHost(hostDestination, source, bytes, what);
  }

  @Override
  public void zero(CUdeviceptr destination, long bytes, String what) {
    device.zero(destination, bytes, what);
  }
}
