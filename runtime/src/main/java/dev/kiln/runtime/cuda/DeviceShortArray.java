package dev.kiln.runtime.cuda;

/** A {@link DeviceArray} of {@code short}: {@link CudaDevice#allocShorts} or {@link CudaDevice#upload(short[])}. */
public final class DeviceShortArray extends DeviceArray {
  /** Bytes an element. */
  public static final int ELEMENT_BYTES = 2;

  DeviceShortArray(MemoryOps memory, long length) {
    super(memory, length, "short", ELEMENT_BYTES);
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
  public void upload(short[] src) {
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
  public void download(short[] dst) {
    if (dst == null) {
      throw new IllegalArgumentException("download from " + this + ": the host array is null");
    }
    copyOut(dst, dst.length);
  }

  /** Copies this array into a new host array. */
  public short[] download() {
    short[] dst = new short[hostLength()];
    copyOut(dst, dst.length);
    return dst;
  }
}
