package dev.kiln.runtime.cuda;

/** A {@link DeviceArray} of {@code long}: {@link CudaDevice#allocLongs} or {@link CudaDevice#upload(long[])}. */
public final class DeviceLongArray extends DeviceArray {
  /** Bytes an element. */
  public static final int ELEMENT_BYTES = 8;

  DeviceLongArray(MemoryOps memory, long length) {
    super(memory, length, "long", ELEMENT_BYTES);
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
  public void upload(long[] src) {
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
  public void download(long[] dst) {
    if (dst == null) {
      throw new IllegalArgumentException("download from " + this + ": the host array is null");
    }
    copyOut(dst, dst.length);
  }

  /** Copies this array into a new host array. */
  public long[] download() {
    long[] dst = new long[hostLength()];
    copyOut(dst, dst.length);
    return dst;
  }
}
