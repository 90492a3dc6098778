package dev.kiln.runtime;

import dev.kiln.runtime.cuda.CudaDevice;
import dev.kiln.runtime.cuda.CudaRuntime;
import dev.kiln.runtime.cuda.DeviceArray;

/**
 * An array that lives where the kernels run: on the host, on the GPU, or both, copied lazily and
 * only when the other side needs it. Generated launchers take its subclasses ({@link FloatTensor},
 * {@link DoubleTensor}, {@link IntTensor}, {@link LongTensor}, {@link ShortTensor}, {@link
 * ByteTensor}) in place of the arrays of those types ({@code OpsKernels.scale(N, x, a, y)} with tensors)
 * and run on {@link Kiln#device()}: the CPU kernel, or the CUDA kernel on the device's default
 * stream, so that one program runs on either by {@code -Dkiln.device} (or by whether there is a
 * GPU). The array launchers always run on the CPU.
 *
 * <p>A tensor owns its storage: {@code of} copies the values in, {@code toArray} copies them out
 * (waiting for the kernels that write it). Each side keeps a copy, marked current or stale; a
 * launcher brings the side it runs on up to date (one copy, only when stale) and marks the arrays
 * it writes as current there only. Not thread-safe. {@link #close} frees the device copy; the
 * values stay readable on the host, and a CUDA launcher then refuses the tensor.
 *
 * @param <A> the host array type ({@code float[]}, ...)
 * @param <D> the device array type
 */
public abstract sealed class Tensor<A, D extends DeviceArray> implements AutoCloseable
    permits FloatTensor, DoubleTensor, IntTensor, LongTensor, ShortTensor, ByteTensor {
  /** The host copy; its length is the tensor's. */
  final A host;
  private final int length;
  private D device;
  private boolean hostCurrent = true;
  private boolean deviceCurrent;
  private boolean closed;

  Tensor(A host, int length) {
    this.host = host;
    this.length = length;
  }

  /** Allocates the device copy. */
  abstract D allocate(CudaDevice gpu, int length);

  abstract void upload(D device, A host);

  abstract void download(D device, A host);

  /** The class's name for messages ({@code FloatTensor}). */
  abstract String kind();

  /** The first elements as text, for {@link #toString}. */
  abstract String preview();

  /** The number of elements. */
  public int length() {
    return length;
  }

  /** Whether the host's copy is current (a launcher or {@code toArray} would not copy from the device). */
  public boolean isCurrentOnHost() {
    return hostCurrent;
  }

  /** Whether the device's copy is current (a CUDA launcher would not copy from the host). */
  public boolean isCurrentOnDevice() {
    return deviceCurrent;
  }

  /**
   * For generated launchers: the host array, made current first. A launcher that writes it calls
   * {@link #hostWritten} after.
   */
  public A hostArray() {
    if (!hostCurrent) {
      download(device, host);
      hostCurrent = true;
    }
    return host;
  }

  /**
   * For generated launchers: the device array on {@link CudaRuntime#device()}, allocated on first
   * use and made current first. A launcher that writes it calls {@link #deviceWritten} after.
   */
  public D deviceArray() {
    open();
    if (device == null) {
      device = allocate(CudaRuntime.device(), length);
    }
    if (!deviceCurrent) {
      if (length > 0) {
        upload(device, host);
      }
      deviceCurrent = true;
    }
    return device;
  }

  /** For generated launchers: the host's copy was written; the device's is stale. */
  public void hostWritten() {
    hostCurrent = true;
    deviceCurrent = false;
  }

  /** For generated launchers: the device's copy was written; the host's is stale. */
  public void deviceWritten() {
    deviceCurrent = true;
    hostCurrent = false;
  }

  /** Frees the device copy (bringing its values to the host first if they are the current ones). */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    if (device != null) {
      hostArray();
      device.close();
      device = null;
    }
    deviceCurrent = false;
    closed = true;
  }

  private void open() {
    if (closed) {
      throw new IllegalStateException("this " + kind() + " of " + length + " elements is closed");
    }
  }

  /** Checks a length for the {@code zeros} factories. */
  static int checkedLength(String kind, int length) {
    if (length < 0) {
      throw new IllegalArgumentException(kind + ".zeros: length " + length + " is negative");
    }
    return length;
  }

  /** Checks values for the {@code of} factories. */
  static <T> T checkedValues(String kind, T values) {
    if (values == null) {
      throw new IllegalArgumentException(kind + ".of: the values are null");
    }
    return values;
  }

  /** Replaces the values with a copy of {@code values}, of the same length. */
  public final void copyFrom(A values) {
    int given = values == null ? -1 : java.lang.reflect.Array.getLength(values);
    if (given != length) {
      throw new IllegalArgumentException(kind() + ".copyFrom: " + (values == null ? "null" : given + " values")
          + " for a tensor of " + length);
    }
    System.arraycopy(values, 0, host, 0, length);
    hostWritten();
  }

  @Override
  public String toString() {
    String where = hostCurrent && deviceCurrent ? "host and device" : hostCurrent ? "host" : "device";
    return kind() + "[" + length + ", current on " + where + "]" + (length <= 8 && hostCurrent ? " " + preview() : "");
  }
}
