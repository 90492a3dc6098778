package dev.kiln.runtime.cuda;

import static jcuda.driver.JCudaDriver.cuStreamCreate;
import static jcuda.driver.JCudaDriver.cuStreamDestroy;
import static jcuda.driver.JCudaDriver.cuStreamSynchronize;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import jcuda.CudaException;
import jcuda.driver.CUstream;
import jcuda.driver.CUstream_flags;

/**
 * A CUDA stream: launches on one stream run in order; launches on different streams may overlap.
 * {@link CudaDevice#defaultStream()} is the legacy default stream, which {@link #close()} leaves
 * alone; {@link CudaDevice#newStream()} makes a blocking stream, ordered with the default stream and
 * so with {@link DeviceArray}'s synchronous copies. Close the streams you make; use after close
 * throws {@link IllegalStateException}.
 */
public final class CudaStream implements AutoCloseable {
  private static final AtomicLong IDS = new AtomicLong();

  private final CudaDevice device;
  private final CUstream handle;
  private final boolean isDefault;
  private final long id;
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile StreamMemoryPool pool;

  private CudaStream(CudaDevice device, CUstream handle, boolean isDefault) {
    this.device = device;
    this.handle = handle;
    this.isDefault = isDefault;
    this.id = isDefault ? 0 : IDS.incrementAndGet();
  }

  /** The device's default stream (a null handle). */
  static CudaStream defaultOf(CudaDevice device) {
    return new CudaStream(device, new CUstream(), true);
  }

  /** A new blocking stream. */
  static CudaStream create(CudaDevice device) {
    device.makeCurrent();
    CUstream handle = new CUstream();
    try {
      cuStreamCreate(handle, CUstream_flags.CU_STREAM_DEFAULT);
    } catch (CudaException e) {
      throw CudaErrors.failure(device, "could not create a stream", e);
    }
    return new CudaStream(device, handle, false);
  }

  /** Waits until everything launched on this stream has finished. */
  public void synchronize() {
    CUstream h = handle();
    device.makeCurrent();
    try {
      cuStreamSynchronize(h);
    } catch (CudaException e) {
      throw CudaErrors.failure(device, "could not synchronize " + this, e);
    }
    device.checkIndexErrors();
  }

  /**
   * A temporary for work enqueued on this stream: close it as soon as that work is enqueued, and its
   * memory serves the stream's next temporary of the same size, with no allocation and no wait
   * ({@link StreamMemoryPool}). Launchers take their temporaries here. Uninitialised.
   */
  public DeviceFloatArray temporaryFloats(long length) {
    return new DeviceFloatArray(pool(), length);
  }

  /** As {@link #temporaryFloats}, of doubles. */
  public DeviceDoubleArray temporaryDoubles(long length) {
    return new DeviceDoubleArray(pool(), length);
  }

  /** As {@link #temporaryFloats}, of ints. */
  public DeviceIntArray temporaryInts(long length) {
    return new DeviceIntArray(pool(), length);
  }

  /** As {@link #temporaryFloats}, of longs. */
  public DeviceLongArray temporaryLongs(long length) {
    return new DeviceLongArray(pool(), length);
  }

  /** As {@link #temporaryFloats}, of shorts. */
  public DeviceShortArray temporaryShorts(long length) {
    return new DeviceShortArray(pool(), length);
  }

  /** As {@link #temporaryFloats}, of bytes. */
  public DeviceByteArray temporaryBytes(long length) {
    return new DeviceByteArray(pool(), length);
  }

  /** Bytes of device memory this stream keeps cached for its temporaries. */
  public long cachedTemporaryBytes() {
    StreamMemoryPool p = pool;
    return p == null ? 0 : p.cachedBytes();
  }

  /** Frees the memory cached for this stream's temporaries (the default stream keeps it otherwise). */
  public void releaseCachedTemporaries() {
    StreamMemoryPool p = pool;
    if (p != null) {
      p.release();
    }
  }

  private StreamMemoryPool pool() {
    handle(); // throws when closed
    StreamMemoryPool p = pool;
    if (p == null) {
      synchronized (this) {
        p = pool;
        if (p == null) {
          p = new StreamMemoryPool(device.memory(), device.totalMemory());
          pool = p;
        }
      }
    }
    return p;
  }

  /**
   * Destroys the stream, and frees its cached temporaries; work already launched on it still runs.
   * Idempotent; no-op on the default.
   */
  @Override
  public void close() {
    if (isDefault || !closed.compareAndSet(false, true)) {
      return;
    }
    StreamMemoryPool p = pool;
    if (p != null) {
      p.close();
    }
    device.makeCurrent();
    try {
      cuStreamDestroy(handle);
    } catch (CudaException e) {
      throw CudaErrors.failure(device, "could not destroy " + this, e);
    }
  }

  /** Whether this is the device's default stream. */
  public boolean isDefault() {
    return isDefault;
  }

  /** The device this stream belongs to. */
  public CudaDevice device() {
    return device;
  }

  /**
   * The JCuda handle, for calls into other CUDA libraries.
   *
   * @throws IllegalStateException when the stream is closed
   */
  public CUstream handle() {
    if (closed.get()) {
      throw new IllegalStateException(this + " is closed; it cannot be used any more");
    }
    return handle;
  }

  /** {@code "the default stream"} or {@code "stream #3"}. */
  @Override
  public String toString() {
    return isDefault ? "the default stream" : "stream #" + id;
  }
}
