package dev.kiln.runtime.cuda;

import java.lang.ref.Cleaner;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;

/**
 * A one-dimensional array in GPU memory. Made by {@link CudaDevice#allocFloats} and the like, filled
 * and read with the subclasses' {@code upload} and {@code download}; kernels take it as an argument.
 * Copies are explicit: nothing moves between host and device unless asked.
 *
 * <p>{@link #close()} frees the memory (use try-with-resources); it is idempotent, and any other use
 * after it throws an {@link IllegalStateException} naming the array. An array that becomes
 * unreachable without being closed is freed when the garbage collector finds it, as a safety net;
 * GPU memory is scarcer than the heap, so close arrays rather than rely on that.
 *
 * <p>An array of length 0 allocates nothing; its {@link #argument()} is a null device pointer.
 * Arrays may be used from any thread, but closing one while another thread uses it is a race.
 */
public abstract sealed class DeviceArray implements AutoCloseable
    permits DeviceFloatArray, DeviceDoubleArray, DeviceIntArray, DeviceLongArray, DeviceShortArray, DeviceByteArray {

  private static final Cleaner CLEANER = Cleaner.create();
  private static final AtomicLong IDS = new AtomicLong();

  private final MemoryOps memory;
  private final long length;
  private final long id;
  private final String elementType;
  private final CUdeviceptr pointer;
  private final Allocation allocation;
  private final Cleaner.Cleanable cleanable;
  private final AtomicBoolean closed = new AtomicBoolean();

  /** Allocates {@code length} elements of {@code elementBytes} bytes each. */
  DeviceArray(MemoryOps memory, long length, String elementType, int elementBytes) {
    if (length < 0) {
      throw new IllegalArgumentException(
          "a device " + elementType + " array cannot have a negative length: " + length);
    }
    long bytes;
    try {
      bytes = Math.multiplyExact(length, (long) elementBytes);
    } catch (ArithmeticException overflow) {
      throw new IllegalArgumentException(
          "a device " + elementType + " array of " + length + " elements is too large");
    }
    this.memory = memory;
    this.length = length;
    this.elementType = elementType;
    this.id = IDS.incrementAndGet();
    this.pointer = bytes == 0 ? new CUdeviceptr() : memory.allocate(bytes, describe());
    this.allocation = new Allocation(memory, pointer, bytes, describe());
    this.cleanable = CLEANER.register(this, allocation);
  }

  /** The number of elements. */
  public long length() {
    return length;
  }

  /** Bytes an element: 4 for float and int, 8 for double. */
  public abstract int elementBytes();

  /** The size in bytes. */
  public long byteSize() {
    return length * elementBytes();
  }

  /** Whether {@link #close()} was called. */
  public boolean isClosed() {
    return closed.get();
  }

  /**
   * This array as a kernel argument: a pointer to its device pointer, for {@code cuLaunchKernel}'s
   * parameter list.
   *
   * @throws IllegalStateException when the array is closed
   */
  public Pointer argument() {
    return Pointer.to(pointer());
  }

  /**
   * The device pointer, for calls into other CUDA libraries. It is valid until {@link #close()}.
   *
   * @throws IllegalStateException when the array is closed
   */
  public CUdeviceptr pointer() {
    checkOpen();
    return pointer;
  }

  /** Sets every element to zero. */
  public void zero() {
    checkOpen();
    if (length > 0) {
      memory.zero(pointer, byteSize(), describe());
    }
  }

  /** Frees the device memory. Idempotent. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      try {
        allocation.free();
      } finally {
        cleanable.clean();
      }
    }
  }

  /** Names the array: {@code "float device array #3 of 1024 elements"}. */
  @Override
  public String toString() {
    return describe() + (isClosed() ? ", closed" : "");
  }

  private String describe() {
    return elementType + " device array #" + id + " of " + length
        + (length == 1 ? " element" : " elements");
  }

  /** Throws when the array is closed. */
  final void checkOpen() {
    if (closed.get()) {
      throw new IllegalStateException(describe() + " is closed; it cannot be used any more");
    }
  }

  /** Copies a whole host array of {@code hostLength} elements in. */
  final void copyIn(Object host, int hostLength) {
    checkOpen();
    checkLength("upload to", hostLength);
    if (length > 0) {
      memory.copyToDevice(pointer, host, byteSize(), describe());
    }
  }

  /** Copies the whole array out into a host array of {@code hostLength} elements. */
  final void copyOut(Object host, int hostLength) {
    checkOpen();
    checkLength("download from", hostLength);
    if (length > 0) {
      memory.copyToHost(host, pointer, byteSize(), describe());
    }
  }

  /** The length of a new host array for {@code download()}. */
  final int hostLength() {
    checkOpen();
    if (length > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException(
          describe() + " is longer than a Java array can be; download it in parts");
    }
    return (int) length;
  }

  private void checkLength(String operation, int hostLength) {
    if (hostLength != length) {
      throw new IllegalArgumentException(operation + " " + describe() + ": the host array has length "
          + hostLength + " but the device array has length " + length);
    }
  }

  /** Frees the memory once, from {@link #close()} or from the cleaner. Holds no array reference. */
  private static final class Allocation implements Runnable {
    private final MemoryOps memory;
    private final CUdeviceptr pointer;
    private final long bytes;
    private final String what;
    private final AtomicBoolean freed = new AtomicBoolean();

    Allocation(MemoryOps memory, CUdeviceptr pointer, long bytes, String what) {
      this.memory = memory;
      this.pointer = pointer;
      this.bytes = bytes;
      this.what = what;
    }

    void free() {
      if (freed.compareAndSet(false, true) && bytes > 0) {
        memory.free(pointer, bytes, what);
      }
    }

    /** The cleaner's action: free, and swallow errors (there is no caller to tell). */
    @Override
    public void run() {
      try {
        free();
      } catch (RuntimeException ignored) {
        // The context may be gone at shutdown; there is nothing left to free then.
      }
    }
  }
}
