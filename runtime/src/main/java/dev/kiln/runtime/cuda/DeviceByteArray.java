package dev.kiln.runtime.cuda;

/** A {@link DeviceArray} of {@code byte}: {@link CudaDevice#allocBytes} or {@link CudaDevice#upload(byte[])}. */
public final class DeviceByteArray extends DeviceArray {
  /** Bytes an element. */
  public static final int ELEMENT_BYTES = 1;

  DeviceByteArray(MemoryOps memory, long length) {
    super(memory, length, "byte", ELEMENT_BYTES);
  }

  @Override
  public int elementBytes() {
    return ELEMENT_BYTES;
  }

  /**
   * Copies a host array in. Synchronous: when it returns, {@code src} may be reused.
   *
   * @throws IllegalArgumentException when {@code src}'s length is not this array's
   */
  public void upload(byte[] src) {
    if (src == null) {
      throw new IllegalArgumentException("upload to " + this + ": the host array is null");
    }
    copyIn(src, src.length);
  }

  /**
   * Copies this array into a host array, after the kernels launched before it have finished.
   *
   * @throws IllegalArgumentException when {@code dst}'s length is not this array's
   */
  public void download(byte[] dst) {
    if (dst == null) {
      throw new IllegalArgumentException("download from " + this + ": the host array is null");
    }
    copyOut(dst, dst.length);
  }

  /** Copies this array into a new host array. */
  public byte[] download() {
    byte[] dst = new byte[hostLength()];
    copyOut(dst, dst.length);
    return dst;
  }
}
