package dev.kiln.runtime;

import dev.kiln.runtime.cuda.CudaRuntime;
import dev.kiln.runtime.cuda.DeviceFloatArray;
import java.util.Arrays;

/**
 * A float array that lives where the kernels run: on the host, on the GPU, or both, copied lazily
 * and only when the other side needs it. Generated launchers take it in place of {@code float[]}
 * ({@code OpsKernels.scale(N, x, a, y)} with {@code FloatTensor}s) and run on {@link Kiln#device()}:
 * the CPU kernel, or the CUDA kernel on the device's default stream, so that one program runs on
 * either by {@code -Dkiln.device} (or by whether there is a GPU). The {@code float[]} launchers
 * always run on the CPU.
 *
 * <p>A tensor owns its storage: {@link #of} copies the values in, {@link #toArray} copies them out
 * (waiting for the kernels that write it). Each side keeps a copy, marked current or stale; a
 * launcher brings the side it runs on up to date (one copy, only when stale) and marks the arrays
 * it writes as current there only. Not thread-safe. {@link #close} frees the device copy; the
 * values stay readable on the host, and a CUDA launcher then refuses the tensor.
 */
public final class FloatTensor implements AutoCloseable {
  private final float[] host;
  private DeviceFloatArray device;
  private boolean hostCurrent = true;
  private boolean deviceCurrent;
  private boolean closed;

  private FloatTensor(float[] host) {
    this.host = host;
  }

  /** A tensor holding a copy of {@code values}. */
  public static FloatTensor of(float... values) {
    if (values == null) {
      throw new IllegalArgumentException("FloatTensor.of: the values are null");
    }
    return new FloatTensor(values.clone());
  }

  /** A tensor of {@code length} zeros. */
  public static FloatTensor zeros(int length) {
    if (length < 0) {
      throw new IllegalArgumentException("FloatTensor.zeros: length " + length + " is negative");
    }
    return new FloatTensor(new float[length]);
  }

  /** The number of elements. */
  public int length() {
    return host.length;
  }

  /** A copy of the values, brought from the device first if its copy is the current one. */
  public float[] toArray() {
    return hostArray().clone();
  }

  /** Element {@code i} (brings the whole tensor to the host when the device's copy is current). */
  public float get(int i) {
    return hostArray()[i];
  }

  /** Replaces the values with a copy of {@code values}, of the same length. */
  public void copyFrom(float[] values) {
    if (values == null || values.length != host.length) {
      throw new IllegalArgumentException("FloatTensor.copyFrom: " + (values == null ? "null" : values.length + " values")
          + " for a tensor of " + host.length);
    }
    System.arraycopy(values, 0, host, 0, host.length);
    hostWritten();
  }

  /** Whether the host's copy is current (a launcher or {@link #toArray} would not copy from the device). */
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
  public float[] hostArray() {
    if (!hostCurrent) {
      device.download(host);
      hostCurrent = true;
    }
    return host;
  }

  /**
   * For generated launchers: the device array on {@link CudaRuntime#device()}, allocated on first
   * use and made current first. A launcher that writes it calls {@link #deviceWritten} after.
   */
  public DeviceFloatArray deviceArray() {
    open();
    if (device == null) {
      device = CudaRuntime.device().allocFloats(host.length);
    }
    if (!deviceCurrent) {
      if (host.length > 0) {
        device.upload(host);
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
      throw new IllegalStateException("this FloatTensor of " + host.length + " elements is closed");
    }
  }

  @Override
  public String toString() {
    String where = hostCurrent && deviceCurrent ? "host and device" : hostCurrent ? "host" : "device";
    return "FloatTensor[" + host.length + ", current on " + where + "]"
        + (host.length <= 8 && hostCurrent ? " " + Arrays.toString(host) : "");
  }
}
